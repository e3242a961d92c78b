// `npx tsx scripts/docs-screenshot.ts [out.png]`: opens the rendered docs in headless Chromium
// with the network cut off and saves a screenshot (default generated/docs/screenshot.png).
// Proves the page works offline and shows the API reference with the areas as sections.
// Chromium: CHROMIUM_PATH, default /usr/bin/chromium (Debian: `apt-get install -y chromium`).
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { buildDocs, docsPath, publicBundlePath } from '../server/docs.js';
import { isMain, projectRoot } from './tools.js';

const launchArgs = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Screenshots the docs page into `output`; returns the docs sections (x-tagGroups) not shown. */
export async function screenshotDocs(output: string): Promise<string[]> {
  if (!existsSync(docsPath)) await buildDocs();
  const bundle = JSON.parse(readFileSync(publicBundlePath, 'utf8')) as {
    info: { title: string };
    'x-tagGroups'?: { name: string }[];
  };
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: launchArgs,
  });
  try {
    const page = await browser.newPage({ viewport: { width: 1440, height: 1000 } });
    const blocked = new Set<string>();
    await page.route('**/*', (route) => {
      const url = route.request().url();
      if (/^(file|data|blob):/.test(url)) return route.continue();
      blocked.add(url);
      return route.abort();
    });
    await page.goto(pathToFileURL(docsPath).href, { waitUntil: 'load' });
    await page.getByText(bundle.info.title).first().waitFor({ timeout: 30_000 });
    await page.waitForTimeout(1_000); // let the menu and fonts settle
    await page.screenshot({ path: output });
    // Only Redoc's "API docs by" badge image asks for the network; it hides itself when offline.
    if (blocked.size > 0) console.error(`blocked network requests: ${[...blocked].join(', ')}`);
    const missing: string[] = [];
    for (const { name } of bundle['x-tagGroups'] ?? []) {
      if (!(await page.getByText(name, { exact: true }).first().isVisible())) missing.push(name);
    }
    return missing;
  } finally {
    await browser.close();
  }
}

if (isMain(import.meta.url)) {
  const output = resolve(process.argv[2] ?? resolve(projectRoot, 'generated', 'docs', 'screenshot.png'));
  const missing = await screenshotDocs(output);
  console.log(`screenshot: ${output}`);
  if (missing.length > 0) {
    console.error(`sections missing from the docs: ${missing.join(', ')}`);
    process.exitCode = 1;
  }
}
