// What the sandbox does before it serves (never production): the demo company on an empty database,
// and the docs page when it is not built yet (production serves the one `npm run build` rendered).
import { existsSync } from 'node:fs';
import type { Db } from '../db/database.js';
import type { Config } from '../config.js';
import { systemClock } from '../lib/clock.js';
import { createClient, createCompany, defaultScopes, listCompanies } from '../areas/auth/store.js';
import { seedCompany } from '../cli/seed.js';
import { buildDocs, buildProductionPage, docsPath } from '../docs.js';
import { productionDocsPath } from '../contract/sandbox.js';
import { addDemoFixtures } from './demo-fixtures.js';

/**
 * The demo company with its first client, 2,000 seeded transactions and the fixtures the docs' samples
 * use (a webhook endpoint, a card, an invite, an attachment: server/sandbox/demo-fixtures.ts).
 * `finance seed --demo` makes it on purpose.
 */
export async function createDemoCompany(db: Db, config: Config) {
  const companyId = await createCompany(db, systemClock, { name: 'Demo Comércio e Serviços Ltda' });
  const client = await createClient(db, systemClock, { companyId, scopes: defaultScopes(config.sandboxHelpers) });
  await seedCompany(db, { companyId, transactions: 2_000, seed: 1, clock: systemClock });
  await addDemoFixtures(db, config, client);
  return client;
}

/** The demo company's first client (its secret shown once) when the database was empty, else undefined. */
export async function prepareSandbox(db: Db, config: Config) {
  const demo = (await listCompanies(db)).length > 0 ? undefined : await createDemoCompany(db, config);
  if (!existsSync(docsPath)) await buildDocs();
  const page = config.sandboxHelpers ? docsPath : productionDocsPath(docsPath);
  if (!config.sandboxHelpers && !existsSync(page)) await buildProductionPage();
  return demo;
}
