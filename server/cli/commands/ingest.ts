// `finance ingest --company ID --file F.jsonl`: loads statement transactions, all or nothing.
import type { Command } from 'commander';
import { systemClock } from '../../lib/clock.js';
import { output, usingDb, withDb } from '../options.js';

const FORMAT = `Each line is one JSON object:
  {"statement": "banking", "transaction": <BankingTransaction without id, companyId, statusDescription, showReceipt, attachments>}
  {"statement": "credit-card", "transaction": <CreditCardTransaction without statusDescription, billDueDate, attachments>}
as the contract (GET /statements/v1/banking, /statements/v1/credit-card) shows them. Accounts, users,
categories and cost centers must belong to the company. Nothing is stored unless every line is valid.
Lines already ingested are skipped, so a file can be ingested again (or after it grew) safely: a
line is recognised by its optional "externalId" (your own id, at the top level of the line), else by
its content and its position among identical lines of the file.`;

export function register(program: Command): void {
  withDb(program.command('ingest'))
    .description('Load banking and credit-card statement transactions from a JSON Lines file')
    .requiredOption('--company <id>', 'company id')
    .requiredOption('--file <path>', 'JSON Lines file')
    .option('--json', 'print one JSON document')
    .addHelpText('after', `\n${FORMAT}`)
    .action(async (opts: { db: string; company: string; file: string; json?: boolean }) => {
      // What ingesting needs (the contract, its line schema, the progress bar) loads for this command only.
      const [{ IngestRejected, ingestFile }, { contract }, { default: cliProgress }] = await Promise.all([
        import('../../areas/statements/ingest/run.js'),
        import('../../contract/index.js'),
        import('cli-progress'),
      ]);
      const bar = process.stderr.isTTY
        ? new cliProgress.SingleBar(
            { stream: process.stderr, format: 'ingest {phase} {value} lines' },
            cliProgress.Presets.shades_classic,
          )
        : undefined;
      bar?.start(0, 0, { phase: 'checking' });
      try {
        const counts = await usingDb(opts.db, (db) =>
          ingestFile(db, contract(), opts.company, opts.file, systemClock.now(), (phase, done) =>
            bar?.update(done, { phase }),
          ),
        );
        bar?.stop();
        output(Boolean(opts.json), {
          companyId: opts.company,
          file: opts.file,
          banking: counts.banking,
          creditCard: counts.creditCard,
          alreadyIngested: counts.alreadyIngested,
          removed: counts.removed,
        });
        if (!opts.json && counts.alreadyIngested > 0) {
          const stored = counts.banking + counts.creditCard;
          process.stderr.write(
            `${counts.alreadyIngested} line(s) were already ingested and were skipped; ${stored === 0 ? 'nothing new was added' : `${stored} new line(s) added`}\n`,
          );
        }
      } catch (err) {
        bar?.stop();
        if (!(err instanceof IngestRejected)) throw err;
        if (opts.json) {
          process.stdout.write(
            `${JSON.stringify({ error: err.message, problems: err.problems, more: err.more }, null, 2)}\n`,
          );
        } else {
          for (const p of err.problems) process.stderr.write(`${opts.file}:${p.line}: ${p.message}\n`);
          if (err.more > 0) process.stderr.write(`… and ${err.more} more\n`);
          process.stderr.write(`finance: ${err.message}\n`);
        }
        process.exitCode = 1;
      }
    });
}
