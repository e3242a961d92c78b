// The test clock and production across real `finance serve` processes on one database (SQLite file,
// or PostgreSQL under TEST_DATABASE=postgres): a clock moved through one process is the clock of
// the other; a production process has no sandbox, neither in its answers nor in its docs page.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Db } from '../server/db/database.js';
import { freshDatabase } from './support/database.js';
import {
  productionEnv,
  sharedCompany,
  startProcesses,
  startServerProcess,
  type ServerProcess,
} from './support/processes.js';
import { customRequest, fund } from './support/factories/vcn.js';

const DAY_MS = 24 * 60 * 60 * 1000;
let dir: string;
let location: string;
let db: Db;
let servers: ServerProcess[];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'sandbox-processes-'));
  location = await freshDatabase(dir);
  ({ db, servers } = await startProcesses(location, [1, 1]));
}, 90_000);
afterAll(async () => {
  await Promise.all((servers ?? []).map((s) => s.stop()));
  await db?.destroy();
  rmSync(dir, { recursive: true, force: true });
});

describe('advanceSandboxClock across processes', () => {
  it('when the clock is moved through one process, then the other reads it and expires the card by it', async () => {
    const acme = await sharedCompany(db, servers);
    await fund(db, acme.companyId);
    const [first, second] = acme.apis as [(typeof acme.apis)[number], (typeof acme.apis)[number]];
    const card = await second.POST('/credit-cards/v1/vcns', { body: customRequest() });
    expect(card.response.status).toBe(201);
    const endDate = card.data!.endDate;
    const to = new Date(Date.parse(`${endDate}T12:00:00-03:00`) + DAY_MS).toISOString();
    const moved = await first.POST('/sandbox/v1/clock/advance', { body: { to } });
    expect(moved.data?.now).toBe(to);
    const read = await second.GET('/sandbox/v1/clock');
    expect(Date.parse(read.data!.now)).toBeGreaterThanOrEqual(Date.parse(to));
    expect(Date.parse(read.data!.now)).toBeLessThan(Date.parse(to) + 60_000);
    const shown = await second.GET('/credit-cards/v1/vcns/{vcnId}', { params: { path: { vcnId: card.data!.vcnId } } });
    expect(shown.data?.status).toBe('EXPIRED');
    const events = await second.GET('/events/v1/events', { params: { query: { types: ['vcn.expired'] } } });
    expect(events.data?.items.map((e) => e.createdAt)).toEqual([to]);
    const back = await second.POST('/sandbox/v1/clock/advance', { body: { to: new Date().toISOString() } });
    expect(back.response.status).toBe(400);
  }, 60_000);
});

describe('the sandbox in a production process', () => {
  it('when NODE_ENV=production, then /sandbox/ answers 404 and neither /openapi.json nor /docs lists it', async () => {
    const production = await startServerProcess(location, { env: await productionEnv() });
    try {
      const acme = await sharedCompany(db, [production]);
      const clock = await acme.apis[0]!.GET('/sandbox/v1/clock');
      expect(clock.response.status).toBe(404);
      const contract = await (await fetch(`${production.baseUrl}/openapi.json`)).text();
      expect(contract).not.toContain('/sandbox/');
      const docs = await fetch(`${production.baseUrl}/docs`);
      expect(docs.status).toBe(200);
      const page = await docs.text();
      expect(page).toContain('/statements/v1/banking');
      expect(page).not.toContain('/sandbox/v1/');
    } finally {
      await production.stop();
    }
  }, 180_000);
});
