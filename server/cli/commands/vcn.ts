// `finance vcn authorize|block|unblock|cancel`: sandbox card events, as the card network raises them.
import type { Command } from 'commander';
import { systemClock } from '../../lib/clock.js';
import { fromMinor, hasAtMostTwoDecimals, toMinor } from '../../lib/money.js';
import { authorizePurchase, setCardStatus } from '../../sandbox/cards.js';
import type { StoredVcnStatus } from '../../areas/vcn/tables.js';
import { output, usingDb, withDb } from '../options.js';

const parseAmount = (value: string): number => {
  const amount = Number(value);
  if (!/^[0-9]+(\.[0-9]{1,2})?$/.test(value) || !hasAtMostTwoDecimals(amount) || amount <= 0) {
    throw new Error(`--amount must be a positive amount with at most 2 decimals: ${value}`);
  }
  return amount;
};

const parseMcc = (value: string): string => {
  if (!/^[0-9]{4}$/.test(value)) throw new Error(`--mcc must be 4 digits: ${value}`);
  return value;
};

function statusCommand(vcn: Command, name: string, target: StoredVcnStatus, description: string): void {
  withDb(vcn.command(name))
    .description(description)
    .requiredOption('--vcn <id>', 'the vcnId')
    .option('--json', 'print one JSON document')
    .action(async (opts: { db: string; vcn: string; json?: boolean }) => {
      const { card } = await usingDb(opts.db, (db) =>
        setCardStatus(db, { vcnId: opts.vcn }, target, systemClock.now()),
      );
      output(Boolean(opts.json), { vcnId: card.id, status: card.status });
    });
}

export function register(program: Command): void {
  const vcn = program.command('vcn').description('Sandbox virtual-card events');
  withDb(vcn.command('authorize'))
    .description('Simulate a purchase: approved or declined by the card status, window, purchase count and ceiling')
    .requiredOption('--vcn <id>', 'the vcnId')
    .requiredOption('--amount <amount>', 'amount in the card currency, e.g. 12.34', parseAmount)
    .option('--merchant <name>', 'merchant name', 'SANDBOX MERCHANT')
    .option('--mcc <code>', 'merchant category code (4 digits)', parseMcc, '5999')
    .option('--json', 'print one JSON document')
    .action(
      async (opts: { db: string; vcn: string; amount: number; merchant: string; mcc: string; json?: boolean }) => {
        const { transaction: tx } = await usingDb(opts.db, (db) =>
          authorizePurchase(db, {
            vcnId: opts.vcn,
            amountMinor: toMinor(opts.amount),
            merchantName: opts.merchant,
            merchantCategory: opts.mcc,
            wall: systemClock.now(),
          }),
        );
        output(Boolean(opts.json), {
          transactionId: tx.id,
          vcnId: tx.vcn_id,
          status: tx.status,
          amount: fromMinor(tx.amount_minor),
          currency: tx.currency,
          ...(tx.authorization_code ? { authorizationCode: tx.authorization_code } : {}),
          ...(tx.decline_reason ? { declineReason: tx.decline_reason } : {}),
        });
      },
    );
  statusCommand(vcn, 'block', 'BLOCKED', 'Block a card: its purchases are declined until unblocked');
  statusCommand(vcn, 'unblock', 'ACTIVE', 'Unblock a blocked card');
  statusCommand(vcn, 'cancel', 'CANCELLED', 'Cancel a card for good: its booking key can be issued again');
}
