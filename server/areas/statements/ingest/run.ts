// `finance ingest`: loads a JSON Lines file of statement transactions into a company. Every line is
// checked (contract schema, the statement's rules, references to the company's accounts, users,
// categories and cost centers) before anything is written; then the rows are published in short
// transactions as one run, undone whole on failure (store/ingest-runs.ts): the API keeps serving.
// Line format: {"statement": "banking" | "credit-card", "transaction": {...the statement item...}}.
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import type { Db } from '../../../db/database.js';
import { publishIngest } from '../store/ingest-runs.js';
import { companyTimeZone } from '../../../db/company-zone.js';
import { loadReferences, type References } from '../store/ingest-references.js';
import type { NewBankingTransaction, NewCreditCardTransaction } from '../tables.js';
import { compileValidators, describeErrors } from './schema.js';
import { bankingProblems, bankingRowOf, creditCardProblems, creditCardRowOf, type BankingLine, type CreditCardLine } from './convert.js';

export interface LineProblem {
  line: number;
  message: string;
}

export class IngestRejected extends Error {
  constructor(readonly problems: LineProblem[], readonly more: number) {
    const lines = new Set(problems.map((p) => p.line)).size;
    super(`${problems.length + more} problem(s) on ${lines}${more > 0 ? '+' : ''} line(s); nothing was stored`);
  }
}

type Parsed = { line: number; statement: 'banking'; t: BankingLine } | { line: number; statement: 'credit-card'; t: CreditCardLine };
const MAX_REPORTED = 50;

function referenceProblems(p: Parsed, refs: References, seenCardIds: Set<string>): string[] {
  const out: string[] = [];
  const t = p.t;
  if (p.statement === 'banking' && !refs.accountIds.has(p.t.accountId)) out.push(`transaction.accountId ${p.t.accountId} is not an account of the company`);
  const people = p.statement === 'banking' ? [['user', p.t.user], ['requesterUser', p.t.requesterUser]] as const : [['user', p.t.user]] as const;
  for (const [field, person] of people) {
    if (!person) continue;
    const email = refs.users.get(person.id.toLowerCase());
    if (email === undefined) out.push(`transaction.${field}.id ${person.id} is not a user of the company`);
    else if (email !== person.email.trim().toLowerCase()) out.push(`transaction.${field}.email does not match the user ${person.id}`);
  }
  if (t.customCategory && !refs.categoryIds.has(t.customCategory.id)) out.push(`transaction.customCategory.id ${t.customCategory.id} is not a category of the company`);
  if (t.costCenter && !refs.costCenterIds.has(t.costCenter.id.toLowerCase())) out.push(`transaction.costCenter.id ${t.costCenter.id} is not a cost center of the company`);
  if (p.statement === 'credit-card') {
    if (refs.takenCardIds.has(p.t.id) || seenCardIds.has(p.t.id)) out.push(`transaction.id ${p.t.id} already exists`);
    seenCardIds.add(p.t.id);
  }
  return out;
}

export async function ingestFile(
  db: Db, companyId: string, file: string, now: Date, onProgress?: (phase: 'checking' | 'storing', done: number) => void,
): Promise<{ banking: number; creditCard: number }> {
  const timeZone = await companyTimeZone(db, companyId);
  if (!timeZone) throw new Error(`no company ${companyId}`);
  const validators = compileValidators();
  const problems: LineProblem[] = [];
  let more = 0;
  const report = (line: number, message: string) => (problems.length < MAX_REPORTED ? problems.push({ line, message }) : (more += 1));
  const parsed: Parsed[] = [];

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
    const { statement, transaction, ...extra } = (value ?? {}) as { statement?: unknown; transaction?: unknown };
    if (typeof value !== 'object' || Array.isArray(value) || Object.keys(extra).length > 0 || (statement !== 'banking' && statement !== 'credit-card')) {
      report(line, 'a line must be {"statement": "banking" | "credit-card", "transaction": {...}}');
      continue;
    }
    const validate = statement === 'banking' ? validators.BankingTransaction : validators.CreditCardTransaction;
    if (!validate(transaction)) {
      describeErrors(validate.errors).forEach((m) => report(line, m));
      continue;
    }
    const p = { line, statement, t: transaction } as Parsed;
    const rules = p.statement === 'banking' ? bankingProblems(p.t) : creditCardProblems(p.t);
    rules.forEach((m) => report(line, m));
    if (rules.length === 0) parsed.push(p);
  }

  const banking = parsed.filter((p): p is Extract<Parsed, { statement: 'banking' }> => p.statement === 'banking');
  const cards = parsed.filter((p): p is Extract<Parsed, { statement: 'credit-card' }> => p.statement === 'credit-card');
  const lower = (s: string) => s.toLowerCase();
  const refs = await loadReferences(db, companyId, {
    accountIds: [...new Set(banking.map((p) => p.t.accountId))],
    userIds: [...new Set(parsed.flatMap((p) => [p.t.user?.id, p.statement === 'banking' ? p.t.requesterUser?.id : undefined]).filter((x): x is string => !!x).map(lower))],
    categoryIds: [...new Set(parsed.flatMap((p) => (p.t.customCategory ? [p.t.customCategory.id] : [])))],
    costCenterIds: [...new Set(parsed.flatMap((p) => (p.t.costCenter ? [lower(p.t.costCenter.id)] : [])))],
    cardIds: [...new Set(cards.map((p) => p.t.id))],
  });
  const seenCardIds = new Set<string>();
  for (const p of parsed) referenceProblems(p, refs, seenCardIds).forEach((m) => report(p.line, m));
  if (problems.length > 0) throw new IngestRejected(problems.sort((a, b) => a.line - b.line), more);

  const bankingRows: NewBankingTransaction[] = banking.map((p) => bankingRowOf(p.t, companyId, now));
  const cardRows: NewCreditCardTransaction[] = cards.map((p) => creditCardRowOf(p.t, companyId, timeZone, now));
  await publishIngest(db, companyId, bankingRows, cardRows, now, onProgress);
  return { banking: bankingRows.length, creditCard: cardRows.length };
}
