// `finance cards list|block|unblock` on a database file, run in this process (the command tree of bin/finance.js).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore } from '../server/db/store.js';
import { createCard } from './support/factories/statements.js';
import { finance as runFinance, financeInProcess } from './support/cli.js';
import { freshDatabase } from './support/database.js';

const dir = mkdtempSync(join(tmpdir(), 'finance-cards-'));
const dbPath = await freshDatabase(dir);
const finance = (...args: string[]) => runFinance([...args, '--db', dbPath], { LOG_LEVEL: 'silent' });
const failing = (...args: string[]) => financeInProcess([...args, '--db', dbPath], { LOG_LEVEL: 'silent' });

let companyId: string;
let otherId: string;
const cards: Record<string, string> = {};

beforeAll(async () => {
  ({ companyId } = JSON.parse(await finance('company', 'create', '--name', 'Construtora Horizonte Ltda', '--json')));
  ({ companyId: otherId } = JSON.parse(await finance('company', 'create', '--name', 'Outra Ltda', '--json')));
  const { db } = await openStore(dbPath);
  try {
    cards.physical = (await createCard(db, companyId, { last4: '4021' })).id;
    cards.virtual = (await createCard(db, companyId, { last4: '5555', type: 'VIRTUAL', name: 'Assinaturas' })).id;
    cards.cancelled = (await createCard(db, companyId, { last4: '9090', status: 'CANCELLED' })).id;
    cards.theirs = (await createCard(db, otherId, { last4: '1234' })).id;
  } finally {
    await db.destroy();
  }
}, 60_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('finance cards list', () => {
  it('when a company has cards, then it lists them as the API does, filtered, and never another company’s', async () => {
    const all = JSON.parse(await finance('cards', 'list', '--company', companyId, '--json'));
    expect(all.cards.map((c: { id: string }) => c.id)).toEqual([cards.cancelled, cards.virtual, cards.physical]);
    expect(all.cards[1]).toMatchObject({ maskedNumber: '**** **** **** 5555', type: 'VIRTUAL', name: 'Assinaturas' });
    const virtual = JSON.parse(await finance('cards', 'list', '--company', companyId, '--type', 'virtual', '--json'));
    expect(virtual.cards.map((c: { id: string }) => c.id)).toEqual([cards.virtual]);
    const byDigits = JSON.parse(await finance('cards', 'list', '--company', companyId, '--last4', '4021', '--json'));
    expect(byDigits.cards.map((c: { id: string }) => c.id)).toEqual([cards.physical]);
    const lines = await finance('cards', 'list', '--company', companyId, '--status', 'CANCELLED');
    expect(lines).toBe(
      `CANCELLED   PHYSICAL **** **** **** 9090 ${cards.cancelled} Cartão Mariana Costa (MARIANA COSTA)\n`,
    );
    expect((await failing('cards', 'list', '--company', companyId, '--status', 'ACTIVE')).code).not.toBe(0);
    expect((await failing('cards', 'list', '--company', companyId, '--last4', '12')).code).not.toBe(0);
  });
});

describe('finance cards block and unblock', () => {
  it('when a card is blocked with a reason and unblocked, then its status follows and each records its event by finance-cli', async () => {
    const blocked = JSON.parse(
      await finance(
        'cards',
        'block',
        '--company',
        companyId,
        '--card',
        cards.physical!,
        '--reason',
        'Perdido',
        '--json',
      ),
    );
    expect(blocked).toMatchObject({ id: cards.physical, status: 'BLOCKED' });
    const unblocked = JSON.parse(
      await finance('cards', 'unblock', '--company', companyId, '--card', cards.physical!, '--json'),
    );
    expect(unblocked.status).toBe('ACTIVATED');
    const { db } = await openStore(dbPath);
    try {
      const events = await db
        .selectFrom('events')
        .select(['type', 'data'])
        .where('company_id', '=', companyId)
        .orderBy('id')
        .execute();
      expect(events.map((e) => e.type)).toEqual(['card.blocked', 'card.unblocked']);
      expect(JSON.parse(events[0]!.data).action).toEqual({ clientId: 'finance-cli', reason: 'Perdido' });
    } finally {
      await db.destroy();
    }
  });

  it('when the card is cancelled, another company’s or unknown, then it fails saying why', async () => {
    const cancelled = await failing('cards', 'unblock', '--company', companyId, '--card', cards.cancelled!);
    expect(cancelled.code).not.toBe(0);
    expect(cancelled.stderr).toContain('CANCELLED');
    const theirs = await failing('cards', 'block', '--company', companyId, '--card', cards.theirs!);
    expect(theirs.code).not.toBe(0);
    expect(theirs.stderr).toContain('no card');
  });
});
