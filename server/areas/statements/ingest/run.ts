// `finance ingest`: loads a JSON Lines file of statement transactions into a company. Every line is
// checked (contract schema, the statement's rules, references to the company's accounts, users,
// categories and cost centers) before anything is written; then the rows are published in short
// transactions as one run, undone whole on failure (store/ingest-runs.ts), and their events recorded
// after them (store/ingest-events.ts): the API keeps serving.
// Line format: {"statement": "banking" | "credit-card", "externalId"?: "...", "transaction": {...}}, or
// {"statement": …, "remove": <id>} for a pending transaction the provider dropped (removals.ts).
// Idempotent per line: a line whose key (its `externalId`, else a hash of its content and how many
// identical lines precede it in the file) was stored before is skipped, so re-ingesting a file
// adds nothing, and a file that grew adds only its new lines.
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { basename } from 'node:path';
import { createInterface } from 'node:readline';
import type { Db } from '../../../db/database.js';
import { publishIngest } from '../store/ingest-runs.js';
import { LINES_HELD_MS, LinesHeldError, storedKeys } from '../store/ingest-lines.js';
import { companyTimeZone } from '../../auth/public.js';
import { loadReferences, type References } from '../store/ingest-references.js';
import type { NewBankingTransaction, NewCreditCardTransaction } from '../tables.js';
import { compileValidators, describeErrors } from './schema.js';
import { applyRemovals, checkRemovals, parseRemoval, type Removal } from './removals.js';
import {
  bankingProblems,
  bankingRowOf,
  creditCardProblems,
  creditCardRowOf,
  type BankingLine,
  type CreditCardLine,
} from './convert.js';
import { canonicalJson } from '../../../lib/canonical-json.js';
import type { ContractIndex } from '../../../contract/index.js';

interface LineProblem {
  line: number;
  message: string;
}

export class IngestRejected extends Error {
  constructor(
    readonly problems: LineProblem[],
    readonly more: number,
  ) {
    const lines = new Set(problems.map((p) => p.line)).size;
    super(`${problems.length + more} problem(s) on ${lines}${more > 0 ? '+' : ''} line(s); nothing was stored`);
  }
}

type Parsed = (
  | { line: number; statement: 'banking'; t: BankingLine }
  | { line: number; statement: 'credit-card'; t: CreditCardLine }
) & { key: string };

interface IngestCounts {
  banking: number;
  creditCard: number;
  /** Lines skipped because they were stored by an earlier ingest. */
  alreadyIngested: number;
  /** Pending transactions removed. */
  removed: number;
}
const MAX_REPORTED = 50;

export function referenceProblems(p: Parsed, refs: References, seenCardIds: Set<string>): string[] {
  const out: string[] = [];
  const t = p.t;
  if (p.statement === 'banking' && !refs.accountIds.has(p.t.accountId))
    out.push(`transaction.accountId ${p.t.accountId} is not an account of the company`);
  const people =
    p.statement === 'banking'
      ? ([
          ['user', p.t.user],
          ['requesterUser', p.t.requesterUser],
        ] as const)
      : ([['user', p.t.user]] as const);
  for (const [field, person] of people) {
    if (!person) continue;
    const email = refs.users.get(person.id.toLowerCase());
    if (email === undefined) out.push(`transaction.${field}.id ${person.id} is not a user of the company`);
    else if (email !== person.email.trim().toLowerCase())
      out.push(`transaction.${field}.email does not match the user ${person.id}`);
  }
  if (t.customCategory && !refs.categoryIds.has(t.customCategory.id))
    out.push(`transaction.customCategory.id ${t.customCategory.id} is not a category of the company`);
  if (t.costCenter && !refs.costCenterIds.has(t.costCenter.id.toLowerCase()))
    out.push(`transaction.costCenter.id ${t.costCenter.id} is not a cost center of the company`);
  if (p.statement === 'credit-card') {
    if (refs.takenCardIds.has(p.t.id) || seenCardIds.has(p.t.id)) out.push(`transaction.id ${p.t.id} already exists`);
    seenCardIds.add(p.t.id);
  }
  return out;
}

export async function ingestFile(
  db: Db,
  index: ContractIndex,
  companyId: string,
  file: string,
  now: Date,
  onProgress?: (phase: 'checking' | 'storing', done: number) => void,
): Promise<IngestCounts> {
  const timeZone = await companyTimeZone(db, companyId);
  if (!timeZone) throw new Error(`no company ${companyId}`);
  const validators = compileValidators(index);
  const problems: LineProblem[] = [];
  let more = 0;
  const report = (line: number, message: string) =>
    problems.length < MAX_REPORTED ? problems.push({ line, message }) : (more += 1);
  const parsed: Parsed[] = [];
  const removals: Removal[] = [];
  const occurrences = new Map<string, number>();

  let line = 0;
  for await (const text of createInterface({ input: createReadStream(file, 'utf8'), crlfDelay: Infinity })) {
    line += 1;
    if (line % 10_000 === 0) onProgress?.('checking', line);
    if (text.trim() === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      report(line, 'not valid JSON');
      continue;
    }
    if (typeof value === 'object' && value !== null && !Array.isArray(value) && 'remove' in value) {
      const removal = parseRemoval(line, value as Record<string, unknown>);
      if (typeof removal === 'string') report(line, removal);
      else removals.push(removal);
      continue;
    }
    const { statement, transaction, externalId, ...extra } = (value ?? {}) as {
      statement?: unknown;
      transaction?: unknown;
      externalId?: unknown;
    };
    if (
      typeof value !== 'object' ||
      Array.isArray(value) ||
      Object.keys(extra).length > 0 ||
      (statement !== 'banking' && statement !== 'credit-card')
    ) {
      report(
        line,
        'a line must be {"statement": "banking" | "credit-card", "externalId"?: "<your id>", "transaction": {...}}',
      );
      continue;
    }
    if (
      externalId !== undefined &&
      (typeof externalId !== 'string' || externalId.length === 0 || externalId.length > 200)
    ) {
      report(line, 'externalId must be a non-empty string of at most 200 characters');
      continue;
    }
    const validate = statement === 'banking' ? validators.BankingTransaction : validators.CreditCardTransaction;
    if (!validate(transaction)) {
      describeErrors(validate.errors).forEach((m) => report(line, m));
      continue;
    }
    let key: string;
    if (typeof externalId === 'string') {
      key = `ext:${statement}:${externalId}`;
    } else {
      const hash = createHash('sha256').update(canonicalJson({ statement, transaction })).digest('hex');
      const seen = occurrences.get(hash) ?? 0;
      occurrences.set(hash, seen + 1);
      key = `sha256:${hash}:${seen}`;
    }
    const p = { line, statement, t: transaction, key } as Parsed;
    const rules = p.statement === 'banking' ? bankingProblems(p.t) : creditCardProblems(p.t);
    rules.forEach((m) => report(line, m));
    if (rules.length === 0) parsed.push(p);
  }

  const duplicateKeys = new Set<string>();
  for (const p of parsed) {
    if (duplicateKeys.has(p.key)) report(p.line, `externalId appears on an earlier line of the file`);
    duplicateKeys.add(p.key);
  }
  const stored = await storedKeys(
    db,
    companyId,
    parsed.map((p) => p.key),
  );
  const fresh = parsed.filter((p) => !stored.has(p.key));
  const alreadyIngested = parsed.length - fresh.length;

  const banking = fresh.filter((p): p is Extract<Parsed, { statement: 'banking' }> => p.statement === 'banking');
  const cards = fresh.filter((p): p is Extract<Parsed, { statement: 'credit-card' }> => p.statement === 'credit-card');
  const lower = (s: string) => s.toLowerCase();
  const refs = await loadReferences(db, companyId, {
    accountIds: [...new Set(banking.map((p) => p.t.accountId))],
    userIds: [
      ...new Set(
        fresh
          .flatMap((p) => [p.t.user?.id, p.statement === 'banking' ? p.t.requesterUser?.id : undefined])
          .filter((x): x is string => !!x)
          .map(lower),
      ),
    ],
    categoryIds: [...new Set(fresh.flatMap((p) => (p.t.customCategory ? [p.t.customCategory.id] : [])))],
    costCenterIds: [...new Set(fresh.flatMap((p) => (p.t.costCenter ? [lower(p.t.costCenter.id)] : [])))],
    cardIds: [...new Set(cards.map((p) => p.t.id))],
  });
  const seenCardIds = new Set<string>();
  for (const p of fresh) referenceProblems(p, refs, seenCardIds).forEach((m) => report(p.line, m));
  const toRemove = await checkRemovals(db, companyId, removals, report);
  if (problems.length > 0)
    throw new IngestRejected(
      problems.sort((a, b) => a.line - b.line),
      more,
    );

  const bankingRows: NewBankingTransaction[] = banking.map((p) => bankingRowOf(p.t, companyId, now));
  const cardRows: NewCreditCardTransaction[] = cards.map((p) => creditCardRowOf(p.t, companyId, timeZone, now));
  const ingestedAt = now.toISOString();
  try {
    await publishIngest(
      db,
      companyId,
      bankingRows,
      cardRows,
      now,
      onProgress,
      (trx) => applyRemovals(trx, companyId, toRemove, { now, timeZone }),
      {
        lines: fresh.map((p) => ({ line_key: p.key, statement: p.statement })),
        // One created event per new transaction, then the summary of the whole file: after the rows.
        summary: { file: basename(file), banking: bankingRows.length, creditCard: cardRows.length, ingestedAt },
      },
    );
  } catch (err) {
    if (!(err instanceof LinesHeldError)) throw err;
    // Another ingest loads (or, since the check, stored) some of these lines.
    const held = new Set(err.keys);
    const message =
      err.by === 'loading'
        ? `another ingest is loading this line; run this one again once it is done (if it stopped, in ${LINES_HELD_MS / 1000} s)`
        : 'another ingest stored this line meanwhile; run this one again to add the rest';
    const lines = fresh.filter((p) => held.has(p.key));
    throw new IngestRejected(
      lines.slice(0, MAX_REPORTED).map((p) => ({ line: p.line, message })),
      Math.max(0, lines.length - MAX_REPORTED),
    );
  }
  return { banking: bankingRows.length, creditCard: cardRows.length, alreadyIngested, removed: toRemove.length };
}
