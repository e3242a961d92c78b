// `finance cards list|block|unblock`: the company's corporate cards, as GET /credit-cards/v1/cards
// and POST /credit-cards/v1/{id}/block|unblock answer them (the same store and presentation); a
// block or unblock records its event with the client `finance-cli`.
import type { Command } from 'commander';
import { systemClock } from '../../lib/clock.js';
import { companyClock } from '../../areas/auth/company-clock.js';
import { presentCard, presentCards } from '../../areas/statements/cards/present.js';
import { CardStateConflict, changeCardStatus, pageCards } from '../../areas/statements/cards/store.js';
import type { CardRow } from '../../areas/statements/tables.js';
import { output, usingDb, withDb } from '../options.js';

const STATUSES: CardRow['status'][] = ['ACTIVATED', 'BLOCKED', 'CANCELLED', 'INACTIVATED'];
const TYPES: CardRow['type'][] = ['PHYSICAL', 'VIRTUAL'];
/** The client named in the events of the changes made with this command. */
const CLI_CLIENT = 'finance-cli';

function oneOf<T extends string>(name: string, allowed: readonly T[]) {
  return (value: string): T => {
    const upper = value.toUpperCase() as T;
    if (!allowed.includes(upper)) throw new Error(`unknown ${name} ${value}: use one of ${allowed.join(', ')}`);
    return upper;
  };
}

function statusCommand(cards: Command, name: 'block' | 'unblock'): void {
  const command = withDb(cards.command(name))
    .description(
      name === 'block'
        ? 'Block a card: its purchases are declined until it is unblocked (records card.blocked)'
        : 'Unblock a blocked card: ACTIVATED again (records card.unblocked)',
    )
    .requiredOption('--company <id>', 'company id')
    .requiredOption('--card <id>', 'the card id (GET /credit-cards/v1/cards, the statement’s cardId)');
  if (name === 'block') command.option('--reason <text>', 'why the card is blocked (kept on the event)');
  command
    .option('--json', 'print one JSON document')
    .action(async (opts: { db: string; company: string; card: string; reason?: string; json?: boolean }) => {
      if (opts.reason !== undefined && (opts.reason.trim() === '' || opts.reason.length > 500))
        throw new Error('--reason must be 1 to 500 characters');
      const shown = await usingDb(opts.db, async (db) => {
        const clock = await companyClock(db, systemClock, opts.company);
        try {
          const card = await changeCardStatus(
            db,
            {
              companyId: opts.company,
              id: opts.card.toLowerCase(),
              to: name === 'block' ? 'BLOCKED' : 'ACTIVATED',
              reason: opts.reason ?? null,
              clientId: CLI_CLIENT,
              requestId: null,
              now: clock.now(),
            },
            async (trx, changed) => (await presentCard(trx, changed)) as unknown as Record<string, unknown>,
          );
          if (!card) throw new Error(`no card ${opts.card} in company ${opts.company}`);
          return presentCard(db, card);
        } catch (err) {
          if (err instanceof CardStateConflict) throw new Error(`the card is ${err.status} and cannot be ${name}ed`);
          throw err;
        }
      });
      output(Boolean(opts.json), shown as unknown as Record<string, unknown>);
    });
}

export function register(program: Command): void {
  const cards = program.command('cards').description("A company's corporate cards: list, block, unblock");

  withDb(cards.command('list'))
    .description("List a company's cards, newest first")
    .requiredOption('--company <id>', 'company id')
    .option('--status <status>', `only cards in this state (${STATUSES.join(', ')})`, oneOf('status', STATUSES))
    .option('--type <type>', `only cards of this type (${TYPES.join(', ')})`, oneOf('type', TYPES))
    .option('--last4 <digits>', 'only cards whose number ends in these 4 digits')
    .option('--json', 'print one JSON document')
    .action(
      async (opts: {
        db: string;
        company: string;
        status?: CardRow['status'];
        type?: CardRow['type'];
        last4?: string;
        json?: boolean;
      }) => {
        if (opts.last4 !== undefined && !/^[0-9]{4}$/.test(opts.last4))
          throw new Error(`--last4 must be 4 digits: ${opts.last4}`);
        const items = await usingDb(opts.db, async (db) => {
          const rows: CardRow[] = [];
          let after: [string, string] | undefined;
          for (;;) {
            const page = await pageCards(db, opts.company, {
              ...(opts.status ? { status: opts.status } : {}),
              ...(opts.type ? { type: opts.type } : {}),
              ...(opts.last4 ? { last4: opts.last4 } : {}),
              after,
              limit: 100,
            });
            rows.push(...page.slice(0, 100));
            const last = page[99];
            if (page.length <= 100 || !last) break;
            after = [new Date(last.created_at).toISOString(), last.id];
          }
          return presentCards(db, opts.company, rows);
        });
        if (opts.json) {
          output(true, { companyId: opts.company, cards: items });
          return;
        }
        for (const c of items)
          process.stdout.write(
            `${c.status.padEnd(11)} ${c.type.padEnd(8)} ${c.maskedNumber} ${c.id} ${c.name} (${c.cardHolderName})\n`,
          );
      },
    );
  statusCommand(cards, 'block');
  statusCommand(cards, 'unblock');
}
