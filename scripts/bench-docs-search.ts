// `npx tsx scripts/bench-docs-search.ts [page.html | http://host/docs]`: opens the built docs page
// (default generated/docs/index.html), or the page a server serves, in headless Chromium five times
// and reports, for each load, the time from navigation to the search box being ready (Redoc's
// trigger stops saying "Loading..."). `--identity` asks the server for the page uncompressed.
// Chromium: CHROMIUM_PATH, default /usr/bin/chromium.
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { docsPath } from '../server/docs.js';

const identity = process.argv.includes('--identity');
const target = process.argv.slice(2).find((arg) => !arg.startsWith('--')) ?? docsPath;
const url = /^https?:/.test(target) ? target : pathToFileURL(resolve(target)).href;
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
});
try {
  const times: number[] = [];
  for (let run = 0; run < 5; run++) {
    const page = await browser.newPage({ viewport: { width: 1440, height: 1000 } });
    // Nothing leaves the machine (the page asks nothing of other hosts; this makes sure).
    await page.route(/^https?:/, (route) => {
      const request = route.request();
      if (new URL(request.url()).origin !== new URL(url).origin) return route.abort();
      const headers = identity ? { ...request.headers(), 'accept-encoding': 'identity' } : undefined;
      return route.continue(headers ? { headers } : {});
    });
    const start = Date.now();
    await page.goto(url, { waitUntil: 'domcontentloaded' });
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
  console.log(`median search ready: ${sorted[2]} ms (${url})`);
} finally {
  await browser.close();
}
