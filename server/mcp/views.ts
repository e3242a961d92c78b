// Tools that are no single operation: what an assistant asks first (which company, which day is
// today there) and the two questions of a month-end close — what is not reconciled yet, and what
// has no receipt. The credit-card statement has no filter for either, so answering them with the
// list tool took a page per call and every field of every row (8 calls and ~600 KB for a seeded
// statement); a view reads the pages itself and answers with the rows that match, in the few
// fields that help act on them.
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ApiTool } from './catalog.js';
import { apiRequest, type SendRequest } from './call.js';
import type { ToolHints } from './hints.js';
import { textResult, toolResult } from './result.js';

type Json = Record<string, unknown>;

/** Who the token acts for: the company's name, id and time zone, today there, the token's scopes. */
export type CompanyContext = () => Promise<Json>;

export interface ViewTool {
  name: string;
  title: string;
  description: string;
  inputSchema: Json & { type: 'object' };
  annotations: ToolHints;
  scopes: string[];
  group: string;
  secretAnswer: false;
  run(args: Json, io: { send: SendRequest; company: CompanyContext }): Promise<CallToolResult>;
}

const READ: ToolHints = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };

/** A view reads at most this many pages per call, and stops after the page that brought this many rows. */
const SCAN_PAGES = 10;
const ENOUGH_ROWS = 100;

/** The fields a view shows of a row (`a.b`: field b of a), and what each statement's list is called. */
const STATEMENTS = {
  banking: {
    list: 'list_banking_transactions',
    fields: ['id', 'statusDescription', 'transactionDate', 'description', 'brlAmount', 'transactionType.subType'],
  },
  'credit-card': {
    list: 'list_credit_card_transactions',
    fields: [
      'id',
      'statusDescription',
      'transactionDate',
      'description',
      'amount',
      'currency',
      'brlAmount',
      'installment',
      'finalCardNumber',
      'bearerName',
    ],
  },
} as const;
const SHARED_FIELDS = ['customCategory.name', 'costCenter.description', 'user.email', 'notes'];

type Statement = keyof typeof STATEMENTS;

function pick(row: Json, paths: readonly string[]): Json {
  const out: Json = {};
  for (const path of paths) {
    const [head, tail] = path.split('.') as [string, string | undefined];
    const value = row[head];
    if (tail === undefined) out[head] = value;
    else if (value && typeof value === 'object') out[head] = { ...(out[head] as Json), [tail]: (value as Json)[tail] };
  }
  return out;
}

const cents = (amount: unknown) => Math.round(Number(amount ?? 0) * 100);
const attached = (row: Json) => Array.isArray(row.attachments) && row.attachments.length > 0;

const period = {
  statement: {
    type: 'string',
    enum: Object.keys(STATEMENTS),
    description: 'Which statement: `credit-card` (card purchases) or `banking` (account movements).',
  },
  startDate: {
    type: 'string',
    format: 'date',
    description: 'First day (inclusive, company time zone). Send with `endDate`, or neither for the whole statement.',
  },
  endDate: { type: 'string', format: 'date', description: 'Last day (inclusive, company time zone).' },
  q: { type: 'string', minLength: 1, maxLength: 200, description: 'Words every row must hold (as the list tools).' },
  nextPageStartKey: {
    type: 'string',
    description: "The previous answer's `nextPageStartKey`, with the same arguments, to go on where it stopped.",
  },
};

interface Scan {
  statement: Statement;
  /** Filters the banking list applies itself; the credit-card list has none, so `keep` does. */
  bankingFilters: Json;
  keep: (row: Json) => boolean;
}

function view(
  name: string,
  title: string,
  description: string,
  lists: Map<string, ApiTool>,
  scan: (statement: Statement) => Scan,
): ViewTool {
  return {
    name,
    title,
    description: `${title}. ${description} Reads the statement's pages itself (up to ${SCAN_PAGES} per call); when \`nextPageStartKey\` comes back, call again with it for the rest.`,
    inputSchema: { type: 'object', properties: period, required: ['statement'] },
    annotations: READ,
    scopes: ['statements:read'],
    group: 'statements',
    secretAnswer: false,
    async run(args, { send }) {
      const { statement: asked, startDate, endDate, q, nextPageStartKey } = args;
      const { statement, bankingFilters, keep } = scan(asked === 'banking' ? 'banking' : 'credit-card');
      const list = lists.get(STATEMENTS[statement].list);
      if (!list) return textResult({ error: `These credentials cannot read the ${statement} statement.` });
      const pageSize = ((list.inputSchema.properties as Json).limit as { maximum?: number } | undefined)?.maximum ?? 50;
      const filters: Json = { startDate, endDate, q, ...(statement === 'banking' ? bankingFilters : {}) };
      const rows: Json[] = [];
      let scanned = 0;
      let cursor = typeof nextPageStartKey === 'string' ? nextPageStartKey : undefined;
      for (let pages = 0; pages < SCAN_PAGES && rows.length < ENOUGH_ROWS; pages++) {
        const request = apiRequest(list, {
          ...filters,
          limit: pageSize,
          ...(cursor ? { nextPageStartKey: cursor } : {}),
        });
        const answer = await send(request);
        if (answer.status >= 400) return toolResult(list, request, answer);
        const page = answer.body as { transactions: Json[]; nextPageStartKey?: string };
        scanned += page.transactions.length;
        for (const row of page.transactions)
          if (keep(row))
            rows.push({
              ...pick(row, [...STATEMENTS[statement].fields, ...SHARED_FIELDS]),
              hasAttachments: attached(row),
            });
        cursor = page.nextPageStartKey;
        if (!cursor) break;
      }
      return textResult({
        statement,
        count: rows.length,
        brlTotal: rows.reduce((sum, row) => sum + cents(row.brlAmount), 0) / 100,
        scanned,
        transactions: rows,
        nextPageStartKey: cursor,
      });
    },
  };
}

/** The views these contract tools can answer (each reads a statement's list tool). */
export function contractViews(tools: readonly ApiTool[]): ViewTool[] {
  const lists = new Map(tools.map((t) => [t.name, t]));
  return [
    {
      name: 'get_company_context',
      title: "The company's name, time zone and today's date",
      description:
        "The company's name, time zone and today's date. Call it first: statement filters take calendar days in the company's time zone, and today is the company's today (the sandbox can move its clock).",
      inputSchema: { type: 'object', properties: {} },
      annotations: READ,
      scopes: [],
      group: 'statements',
      secretAnswer: false,
      run: async (_args, { company }) => textResult(await company()),
    },
    view(
      'list_unreconciled_transactions',
      'Transactions not reconciled yet',
      'Only the rows of the period whose conciliation is not done (canceled ones left out), with their count and BRL total.',
      lists,
      (statement) => ({
        statement,
        bankingFilters: { wasConciled: false },
        keep: (row) => !(row.conciliation as { conciled?: boolean } | undefined)?.conciled && row.status !== 1,
      }),
    ),
    view(
      'list_transactions_missing_receipts',
      'Transactions without a receipt',
      'Only the rows of the period with no attachment uploaded (canceled ones left out), with their count and BRL total.',
      lists,
      (statement) => ({
        statement,
        bankingFilters: { hasAttachments: false },
        keep: (row) => !attached(row) && row.status !== 1,
      }),
    ),
  ];
}
