// `finance export banking|credit-card --company ID --format csv|ofx --out FILE`: the file that
// GET /statements/v1/exports/… streams, with the same filters and rules, written straight from the
// store (the same code: areas/statements/exports/sources.ts) at the pace the disk takes it.
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { finished } from 'node:stream/promises';
import { type Command, InvalidArgumentError, Option } from 'commander';
import type { Db } from '../../db/database.js';
import { loadConfig } from '../../config.js';
import { companyTimeZone } from '../../areas/auth/company-zone.js';
import { systemClock } from '../../lib/clock.js';
import { companyClock } from '../../areas/auth/company-clock.js';
import { bankingPageQuery } from '../../areas/statements/banking-query.js';
import { creditCardQuery } from '../../areas/statements/credit-card-query.js';
import type { CreditCardType } from '../../areas/statements/card-types.js';
import type { ExportRequest } from '../../areas/statements/exports/sources.js';
import type { Write } from '../../areas/statements/exports/stream.js';
import { output, positiveInt, usingDb, withDb } from '../options.js';

interface Options {
  db: string;
  company: string;
  format: 'csv' | 'ofx';
  dialect?: 'rfc4180' | 'excel-br';
  out: string;
  startDate?: string;
  endDate?: string;
  json?: boolean;
}

const day = (value: string) => {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value) || Number.isNaN(Date.parse(value)))
    throw new InvalidArgumentError(`not a date (YYYY-MM-DD): ${value}`);
  return value;
};
const list = (value: string) => value.split(',').filter(Boolean);
const statuses = (value: string) =>
  list(value).map((s) => {
    if (!['1', '2', '3'].includes(s)) throw new InvalidArgumentError(`not a status (1, 2 or 3): ${s}`);
    return Number(s) as 1 | 2 | 3;
  });
const CARD_TYPES: readonly CreditCardType[] = ['PURCHASE', 'INSTALLMENT_PURCHASE', 'INTERNATIONAL_PURCHASE'];
const cardTypes = (value: string) =>
  list(value).map((t) => {
    if (!(CARD_TYPES as readonly string[]).includes(t))
      throw new InvalidArgumentError(`not a type (${CARD_TYPES.join(', ')}): ${t}`);
    return t as CreditCardType;
  });

function common(command: Command, statement: string): Command {
  return withDb(command)
    .description(`Write the ${statement} statement as CSV or OFX, as GET /statements/v1/exports/${statement} does`)
    .requiredOption('--company <id>', 'company id')
    .addOption(new Option('--format <format>', 'file format').choices(['csv', 'ofx']).makeOptionMandatory())
    .addOption(new Option('--dialect <dialect>', 'CSV dialect (default rfc4180)').choices(['rfc4180', 'excel-br']))
    .requiredOption('--out <file>', 'file to write (created or truncated)')
    .option('--start-date <YYYY-MM-DD>', 'first day, company time zone (with --end-date)', day)
    .option('--end-date <YYYY-MM-DD>', 'last day, company time zone (with --start-date)', day)
    .option('--json', 'print one JSON document');
}

/** What writing an export needs (the contract, the export sources), loaded for this command only. */
const exporting = async () => {
  const [{ contract }, sources] = await Promise.all([
    import('../../contract/index.js'),
    import('../../areas/statements/exports/sources.js'),
  ]);
  return { contract, ...sources };
};

/** Opens the company and the file, writes the export, reports it. */
async function run(opts: Options, produce: (db: Db, write: Write, request: ExportRequest) => Promise<number>) {
  if (opts.format === 'ofx' && opts.dialect) throw new Error('--dialect applies to --format csv only');
  const rows = await usingDb(opts.db, async (db) => {
    const timeZone = await companyTimeZone(db, opts.company);
    if (!timeZone) throw new Error(`no company ${opts.company}`);
    // Statement data: readable by its owner only when we create the file.
    const file = createWriteStream(opts.out, { mode: 0o600 });
    const write: Write = async (text) => {
      if (!file.write(text)) await once(file, 'drain');
    };
    const request = { format: opts.format, dialect: opts.dialect ?? 'rfc4180', timeZone, now: systemClock.now() };
    try {
      return await produce(db, write, request);
    } finally {
      file.end();
      await finished(file);
    }
  });
  output(Boolean(opts.json), { companyId: opts.company, file: opts.out, format: opts.format, rows });
}

export function register(program: Command): void {
  const exporter = program.command('export').description('Write a statement as CSV or OFX');
  common(exporter.command('banking'), 'banking')
    .option('--account <id>', 'only this account', positiveInt)
    .addOption(
      new Option('--sorting <field:order>', 'as the list (default transactionDate:desc)').choices([
        'transactionDate:desc',
        'transactionDate:asc',
        'brlAmount:desc',
        'brlAmount:asc',
        'totalTransactionAmount:desc',
        'totalTransactionAmount:asc',
      ]),
    )
    .option('--status <1,2,3>', 'only these statuses', statuses)
    .action(async (opts: Options & { account?: number; sorting?: never; status?: Array<1 | 2 | 3> }) => {
      await run(opts, async (db, write, request) => {
        const query = { ...opts, accountId: opts.account };
        const { timeZone } = request;
        const auth = {
          companyId: opts.company,
          clientId: 'finance export',
          scopes: new Set<string>(),
          timeZone,
          companyClock: await companyClock(db, systemClock, opts.company),
        };
        const { contract, exportBanking } = await exporting();
        const { page, email } = bankingPageQuery(query, { auth, config: loadConfig({}), index: contract() });
        return exportBanking(db, write, page, email, request);
      });
    });
  common(exporter.command('credit-card'), 'credit-card')
    .option('--card-ids <uuid,…>', 'only these cards', list)
    .option('--types <type,…>', `only these types (${CARD_TYPES.join(', ')})`, cardTypes)
    .option('--status <1,2,3>', 'only these statuses', statuses)
    .action(async (opts: Options & { cardIds?: string[]; types?: CreditCardType[]; status?: Array<1 | 2 | 3> }) => {
      await run(opts, async (db, write, request) => {
        const { query } = creditCardQuery(opts, opts.company, request.timeZone);
        const { exportCreditCard } = await exporting();
        return exportCreditCard(db, write, query, request);
      });
    });
}
