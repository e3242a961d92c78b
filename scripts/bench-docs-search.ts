// `npx tsx scripts/bench-docs-search.ts [page.html | http://host/docs]`: opens the built docs page
// (default generated/docs/index.html), or the page a server serves, in headless Chromium five times
// and reports, for each load, the time from navigation to: the search box shown; the search box
// answering a query typed into it (its first result listed: the page's own code has let the browser
// go); Redoc's full-text search ready (its trigger, under the box, stops saying "Loading...").
// `--identity` asks the server for the page uncompressed.
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
  const answers: number[] = [];
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
    await page.goto(url, { waitUntil: 'commit' });
    const box = page.locator('#docs-search input');
    await box.waitFor({ timeout: 60_000 });
    const shown = Date.now() - start;
    await box.fill('cost center');
    await page.locator('#docs-search li[role=option]').first().waitFor({ timeout: 60_000 });
    const answered = Date.now() - start;
    answers.push(answered);
    await page.waitForFunction(
      () => !/Loading/.test(document.querySelector('[data-testid="search-trigger"]')?.textContent ?? 'Loading'),
      undefined,
      { timeout: 60_000, polling: 20 },
    );
    const ready = Date.now() - start;
    times.push(ready);
    console.log(
      `load ${run + 1}: box shown ${shown} ms, box answers ${answered} ms, full-text search ready ${ready} ms`,
    );
    await page.close();
  }
  const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];
  console.log(`median: box answers ${median(answers)} ms, full-text search ready ${median(times)} ms (${url})`);
} finally {
  await browser.close();
}
