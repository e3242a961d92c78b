// What the sandbox does before it serves (never production): the demo company on an empty database,
// and the docs page when it is not built yet (production serves the one `npm run build` rendered).
// A database with any company gets no demo data; one with companies the sandbox did not make is said
// so at start, as the sandbox's helpers and simulated issuer then act on them.
import { existsSync } from 'node:fs';
import { warnLine } from '../lib/warn.js';
import type { Db } from '../db/database.js';
import type { Config } from '../config.js';
import { systemClock } from '../lib/clock.js';
import { createClient, createCompany, defaultScopes, listCompanies } from '../areas/auth/store.js';
import { seedCompany } from '../cli/seed.js';
import { buildDocs, buildProductionPage, docsPath } from '../docs.js';
import { productionDocsPath } from '../contract/sandbox.js';
import { addDemoFixtures } from './demo-fixtures.js';

const DEMO_COMPANY_NAME = 'Demo Comércio e Serviços Ltda';

/**
 * The demo company with its first client, 2,000 seeded transactions and the fixtures the docs' samples
 * use (a webhook endpoint, a card, an invite, an attachment: server/sandbox/demo-fixtures.ts).
 * `finance seed --demo` makes it on purpose.
 */
export async function createDemoCompany(db: Db, config: Config) {
  const companyId = await createCompany(db, systemClock, { name: DEMO_COMPANY_NAME });
  const client = await createClient(db, systemClock, { companyId, scopes: defaultScopes(config.sandboxHelpers) });
  await seedCompany(db, { companyId, transactions: 2_000, seed: 1, clock: systemClock });
  await addDemoFixtures(db, config, client);
  return client;
}

/** The demo company's first client (its secret shown once) when the database was empty, else undefined. */
export async function prepareSandbox(db: Db, config: Config) {
  const companies = await listCompanies(db);
  const others = companies.filter((c) => c.name !== DEMO_COMPANY_NAME);
  const named = others.slice(0, 3).map((c) => `${c.companyId} ${c.name}`);
  if (others.length > 0)
    warnLine(
      `the sandbox adds no demo data to a database holding companies it did not create (${named.join(', ')}${others.length > 3 ? ', …' : ''}); its helpers and simulated card issuer act on them: for production set NODE_ENV=production`,
    );
  const demo = companies.length > 0 ? undefined : await createDemoCompany(db, config);
  if (!existsSync(docsPath)) await buildDocs();
  const page = config.sandboxHelpers ? docsPath : productionDocsPath(docsPath);
  if (!config.sandboxHelpers && !existsSync(page)) await buildProductionPage();
  return demo;
}
