// The docs page and CORS as a browser sees them (headless Chromium): the page renders offline with
// every tag, finds an operation by search, runs a call from its console, and asks nothing of any
// other host; a page on another local origin calls the sandbox through CORS.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadBundle } from '../server/contract/index.js';
import { launchChromium } from './support/chromium.js';
import { startTestServer, type TestCompany, type TestServer } from './support/server.js';

let server: TestServer;
let acme: TestCompany;
let browser: Browser;

beforeAll(async () => {
  server = await startTestServer();
  acme = await server.newCompany();
  browser = await launchChromium();
}, 600_000);
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** Every host the page asked for. */
function hostsOf(page: Page): Set<string> {
  const hosts = new Set<string>();
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.protocol === 'http:' || url.protocol === 'https:') hosts.add(url.host);
  });
  return hosts;
}

describe('the docs page in a browser, one page load for a reader’s tasks', () => {
  // One page load for both (the viewer's start costs seconds of a core): the console's calls, then the
  // search box, as one reader would use them.
  let page: Page;
  let hosts: Set<string>;
  beforeAll(async () => {
    page = await browser.newPage({ viewport: { width: 1440, height: 1000 } });
    hosts = hostsOf(page);
    await page.goto(`${server.baseUrl}/docs`, { waitUntil: 'load' });
  }, 60_000);
  afterAll(async () => page?.close());

  it('when opened, then every tag shows, search finds an operation, the console runs a call, and no request leaves this server', async () => {
    const tags = (loadBundle('public').tags as Array<{ name: string }>).map((t) => t.name);
    await page.getByText(tags[0]!, { exact: true }).first().waitFor({ timeout: 30_000 });
    for (const tag of tags) expect(await page.getByText(tag, { exact: true }).count(), tag).toBeGreaterThan(0);

    await page.getByRole('button', { name: 'Try it' }).click();
    await page.locator('#try-it-search').fill('reconcile banking');
    expect(
      await page
        .locator('#try-it-operation option')
        .evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value)),
    ).toEqual(['reconcileBankingTransactions', 'reconcileBankingTransaction']);
    await page.locator('#try-it-search').fill('');
    await page.locator('#try-it-client-id').fill(acme.clientId);
    await page.locator('#try-it-client-secret').fill(acme.clientSecret);
    await page.locator('#try-it-token').click();
    await expect.poll(() => page.locator('#try-it-result').textContent()).toContain('token received');
    await page.locator('#try-it-operation').selectOption('listCostCenters');
    await page.locator('#try-it-send').click();
    await expect.poll(() => page.locator('#try-it-result').textContent()).toMatch(/^200 OK\nX-Request-Id: req_/);

    expect([...hosts]).toEqual([new URL(server.baseUrl).host]);
  }, 120_000);

  it('when a query is typed in the search box, then it lists the operations, a guide section and an event, and Enter opens the chosen one', async () => {
    const box = page.locator('#docs-search input');
    // Over the viewer's own search trigger, at its place.
    const [boxAt, triggerAt] = [
      await box.boundingBox(),
      await page.getByTestId('search-trigger').first().boundingBox(),
    ];
    expect(Math.abs(boxAt!.x - triggerAt!.x)).toBeLessThan(2);
    expect(Math.abs(boxAt!.y - triggerAt!.y)).toBeLessThan(2);
    await page.keyboard.press('/');
    await page.keyboard.type('cost center');
    const titles = () => page.locator('#docs-search li[role=option] a').allTextContents();
    await expect.poll(titles).toEqual(expect.arrayContaining([expect.stringContaining('GETList cost centers')]));
    expect((await titles())[0]).toContain('Cost centers');
    await box.fill('rate limit');
    await expect.poll(titles).toEqual(expect.arrayContaining([expect.stringContaining('Rate limits')]));
    await box.fill('attachment created');
    await expect.poll(titles).toEqual(expect.arrayContaining([expect.stringContaining('attachment.created')]));
    await box.fill('rename cost center');
    await expect.poll(async () => (await titles())[0]).toContain('Rename a cost center');
    await page.keyboard.press('Enter');
    await expect.poll(() => new URL(page.url()).hash).toBe('#/cost-centers/updatecostcenter');
    await page.getByRole('heading', { name: 'Rename a cost center' }).first().waitFor({ timeout: 30_000 });
    await box.fill('zzzz-nothing');
    await expect.poll(() => page.locator('#docs-search .hint').textContent()).toContain('Nothing found');
  }, 120_000);
});

describe('operations in a browser, one page moved between them by their addresses', () => {
  // One page load for the four (the viewer's start costs seconds of a core): opened at an error body's
  // docUrl, then moved by its address as a reader follows a link within it. The curl samples are checked
  // before another language is chosen.
  let operationPage: Page;
  let docUrl: string;
  beforeAll(async () => {
    const res = await fetch(`${server.baseUrl}/statements/v1/banking?limt=5`, {
      headers: { Authorization: `Bearer ${acme.token}` },
    });
    docUrl = ((await res.json()) as { docUrl: string }).docUrl;
    operationPage = await browser.newPage({ viewport: { width: 1440, height: 1000 } });
    await operationPage.goto(docUrl, { waitUntil: 'load' });
  }, 60_000);
  afterAll(async () => operationPage?.close());

  it('when an error body’s docUrl is opened, then the page shows that reason’s paragraph', async () => {
    const heading = operationPage.locator('[id="section/error-reasons/unknown_query_parameter"]');
    await heading.waitFor({ timeout: 30_000 });
    expect(await heading.textContent()).toContain('unknown_query_parameter');
    // Scrolled to: the paragraph is on screen, not merely somewhere in the page.
    await expect.poll(async () => (await heading.boundingBox())?.y ?? -1).toBeGreaterThanOrEqual(0);
    expect((await heading.boundingBox())!.y).toBeLessThan(1000);
  }, 60_000);

  it('when a sample with long lines is shown at 1,440 px, then no line is clipped and the copy button covers no code', async () => {
    await operationPage.goto(`${server.baseUrl}/docs#/statements/reconcilebankingtransaction`);
    const code = operationPage.locator('[data-testid="right-panel"] pre', { hasText: 'curl -s -X PATCH' }).first();
    await code.waitFor({ timeout: 30_000 });
    const layout = await code.evaluate((pre) => {
      const copy = pre.parentElement!.querySelector('[data-testid="copy-button"]')!.getBoundingClientRect();
      const range = document.createRange();
      range.selectNodeContents(pre);
      const firstLine = range.getClientRects()[0]!;
      return { scroll: pre.scrollWidth, width: pre.clientWidth, copyBottom: copy.bottom, codeTop: firstLine.top };
    });
    expect(layout.scroll).toBeLessThanOrEqual(layout.width);
    expect(layout.copyBottom).toBeLessThanOrEqual(layout.codeTop);
  }, 60_000);

  it('when the sample menu of createCostCenter is opened and the TypeScript client chosen, then its createFinanceClient call is visible', async () => {
    await operationPage.goto(`${server.baseUrl}/docs#/cost-centers/createcostcenter`);
    await operationPage.getByRole('heading', { name: 'Create a cost center' }).first().waitFor({ timeout: 30_000 });
    const menu = operationPage.locator('button:visible', { hasText: /^curl$/ }).first();
    await menu.click();
    await operationPage.getByText('TypeScript client', { exact: true }).first().click();
    const sample = operationPage
      .locator('pre:visible', { hasText: "finance.POST('/cost-centers/v1/cost-centers'" })
      .first();
    await sample.waitFor({ timeout: 10_000 });
    expect(await sample.textContent()).toContain('createFinanceClient({');
  }, 120_000);

  it('when the console is opened on getCostCenter, then it is on that operation with a field for id, and sends it', async () => {
    const reader = await server.newCompany();
    const { data: created } = await reader.api.POST('/cost-centers/v1/cost-centers', { body: { name: 'Console' } });
    await operationPage.goto(`${server.baseUrl}/docs#/cost-centers/getcostcenter`);
    await operationPage.getByRole('heading', { name: 'Get a cost center' }).first().waitFor({ timeout: 30_000 });
    await operationPage.getByRole('button', { name: 'Try it' }).click();
    expect(await operationPage.locator('#try-it-operation').inputValue()).toBe('getCostCenter');
    const fields = await operationPage
      .locator('#try-it-parameters input')
      .evaluateAll((inputs) =>
        inputs.map((i) => `${(i as HTMLInputElement).dataset.in}:${(i as HTMLInputElement).dataset.name}`),
      );
    expect(fields).toEqual(['path:id']);
    expect(await operationPage.locator('#try-it-body').isVisible()).toBe(false);
    expect(await operationPage.locator('#try-it-body-label').isVisible()).toBe(false);
    await operationPage.locator('#try-it-param-id').fill(created!.id);
    await operationPage.locator('#try-it-client-id').fill(reader.clientId);
    await operationPage.locator('#try-it-client-secret').fill(reader.clientSecret);
    await operationPage.locator('#try-it-token').click();
    await expect.poll(() => operationPage.locator('#try-it-result').textContent()).toContain('token received');
    await operationPage.locator('#try-it-send').click();
    await expect
      .poll(() => operationPage.locator('#try-it-result').textContent())
      .toMatch(/^200 OK\n[\s\S]*"name": "Console"/);
    await operationPage.screenshot({ path: join(tmpdir(), 'docs-console.png') });

    // Another operation's query parameters get a field each, limit starting at its example.
    await operationPage.locator('#try-it-operation').selectOption('listBankingTransactions');
    const names = await operationPage
      .locator('#try-it-parameters input')
      .evaluateAll((inputs) => inputs.map((i) => (i as HTMLInputElement).dataset.name));
    expect(names).toEqual(expect.arrayContaining(['limit', 'startDate', 'endDate', 'status', 'sorting']));
  }, 120_000);
});

describe('the search box before the viewer starts, in a browser', () => {
  it('when a query is typed as the page opens, then the box answers before the viewer starts, which starts a second after the typing', async () => {
    const page = await browser.newPage({ viewport: { width: 1440, height: 1000 } });
    // The page's timers run on a clock the test moves (paused: installed, it would still flow), so a
    // busy machine cannot start the viewer early.
    await page.clock.install();
    await page.clock.pauseAt(Date.now() + 1_000);
    await page.goto(`${server.baseUrl}/docs`, { waitUntil: 'commit' });
    const box = page.locator('#docs-search input');
    await box.waitFor();
    await box.fill('cost center');
    await page.locator('#docs-search li[role=option]').first().waitFor();
    const viewer = () => page.evaluate(() => document.documentElement.dataset.viewer ?? 'waiting');
    expect(await viewer()).toBe('waiting');
    await page.clock.runFor(800);
    expect(await viewer()).toBe('waiting');
    await page.clock.resume();
    await expect.poll(viewer, { timeout: 10_000 }).toBe('started');
    // The viewer's own full-text search comes up once it has started.
    await expect
      .poll(() => page.getByTestId('search-trigger').first().textContent(), { timeout: 30_000 })
      .not.toContain('Loading');
    expect(await box.inputValue()).toBe('cost center');
    await page.close();
  }, 120_000);

  it('when the menu is clicked before the viewer has started, then the viewer starts and shows that section', async () => {
    const page = await browser.newPage({ viewport: { width: 1440, height: 1000 } });
    await page.clock.install();
    await page.clock.pauseAt(Date.now() + 1_000);
    await page.goto(`${server.baseUrl}/docs`, { waitUntil: 'commit' });
    const box = page.locator('#docs-search input');
    await box.waitFor();
    // Typing holds the viewer back a second: the click lands on the prerendered menu.
    await box.fill('rate');
    await box.press('Escape');
    expect(await page.evaluate(() => document.documentElement.dataset.viewer ?? 'waiting')).toBe('waiting');
    await page.locator('#redoc').getByText('Rate limits', { exact: true }).first().click();
    await page.clock.resume();
    await expect.poll(() => new URL(page.url()).hash).toBe('#/section/rate-limits');
    expect(new URL(page.url()).pathname).toBe('/docs');
    await expect
      .poll(async () => (await page.locator('[id="section/rate-limits"]').boundingBox())?.y ?? -1)
      .toBeGreaterThanOrEqual(0);
    await page.close();
  }, 120_000);
});

describe('CORS from a browser page', () => {
  let site: Server;
  beforeAll(async () => {
    // A page on another local origin (http://localhost:<port>) that calls the sandbox with a token.
    site = createServer((_req, res) => {
      res.setHeader('Content-Type', 'text/html');
      res.end('<!doctype html><title>integration</title>');
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  });
  afterAll(async () => new Promise<void>((resolve) => site.close(() => resolve())));

  it('when a page on http://localhost:<port> calls the sandbox with a bearer token, then the browser lets it read the answer and X-Request-Id', async () => {
    const page = await browser.newPage();
    await page.goto(`http://localhost:${(site.address() as AddressInfo).port}/`);
    const result = await page.evaluate(
      async ([api, token]) => {
        const res = await fetch(`${api}/cost-centers/v1/cost-centers`, {
          headers: { Authorization: `Bearer ${token}`, 'X-Request-Id': 'from-browser-1' },
        });
        return { status: res.status, requestId: res.headers.get('X-Request-Id'), body: await res.json() };
      },
      [server.baseUrl, acme.token] as const,
    );
    expect(result).toMatchObject({ status: 200, requestId: 'from-browser-1', body: { items: [] } });

    await page.close();
  }, 60_000);
});
