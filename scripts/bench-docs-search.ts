// `npx tsx scripts/bench-docs-search.ts [page.html]`: opens the built docs page (default
// generated/docs/index.html) in headless Chromium five times and reports, for each load, the time
// from navigation to the search box being ready (Redoc's trigger stops saying "Loading...").
// Chromium: CHROMIUM_PATH, default /usr/bin/chromium.
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { docsPath } from '../server/docs.js';

const file = resolve(process.argv[2] ?? docsPath);
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
});
try {
  const times: number[] = [];
  for (let run = 0; run < 5; run++) {
    const page = await browser.newPage({ viewport: { width: 1440, height: 1000 } });
    await page.route(/^https?:/, (route) => route.abort());
    const start = Date.now();
    await page.goto(pathToFileURL(file).href, { waitUntil: 'domcontentloaded' });
    const trigger = page.getByTestId('search-trigger').first();
    await trigger.waitFor({ timeout: 60_000 });
    const shown = Date.now() - start;
    await page.waitForFunction(
      () => !/Loading/.test(document.querySelector('[data-testid="search-trigger"]')?.textContent ?? 'Loading'),
      undefined,
      { timeout: 60_000, polling: 20 },
    );
    const ready = Date.now() - start;
    times.push(ready);
    console.log(`load ${run + 1}: page shown ${shown} ms, search ready ${ready} ms`);
    await page.close();
  }
  const sorted = [...times].sort((a, b) => a - b);
  console.log(`median search ready: ${sorted[2]} ms (${file})`);
} finally {
  await browser.close();
}
