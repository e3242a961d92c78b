// Prompts for the tasks a finance team repeats: a client shows them as commands ("/month_end_close
// 2026-10"), and each names the tools that answer it in few calls, so the model does not explore.
import type { GetPromptResult, Prompt } from '@modelcontextprotocol/sdk/types.js';

interface FinancePrompt extends Prompt {
  /** The tools the text relies on: the prompt is listed only when the session has them all. */
  tools: string[];
  text(args: Record<string, string | undefined>): string;
}

const month = { name: 'month', description: 'The month, `YYYY-MM` (default: the previous month).', required: false };

const ofMonth = (args: Record<string, string | undefined>) =>
  args.month
    ? `the month ${args.month} (from its first to its last day)`
    : "the previous month (call get_company_context for today's date)";

const PROMPTS: FinancePrompt[] = [
  {
    name: 'month_end_close',
    title: 'Month-end close',
    description: 'Review a month of both statements: totals, what is not reconciled, what has no receipt.',
    arguments: [month],
    tools: [
      'get_company_context',
      'get_banking_summary',
      'get_credit_card_summary',
      'list_unreconciled_transactions',
      'list_transactions_missing_receipts',
    ],
    text: (args) =>
      [
        `Prepare the month-end close of ${ofMonth(args)}.`,
        '1. get_company_context: the company, its time zone and today.',
        '2. get_banking_summary and get_credit_card_summary for the month (startDate, endDate), with groupBy "costCenter": the totals to report.',
        '3. list_unreconciled_transactions for statement "banking" and for "credit-card", same dates: what is left to reconcile.',
        '4. list_transactions_missing_receipts for both statements, same dates: whose receipts to ask for (user.email).',
        'Report the totals, the rows left to reconcile and the receipts missing per person. Reconcile nothing without my confirmation: reconciling cannot be undone.',
      ].join('\n'),
  },
  {
    name: 'missing_receipts',
    title: 'Missing receipts',
    description: 'List the card purchases and bank movements of a month without a receipt, per person.',
    arguments: [month],
    tools: ['get_company_context', 'list_transactions_missing_receipts'],
    text: (args) =>
      [
        `Find the transactions of ${ofMonth(args)} that have no receipt.`,
        'Call list_transactions_missing_receipts for statement "credit-card" and for "banking" with the month\'s startDate and endDate, following nextPageStartKey until it is absent.',
        "Group what you find by user.email (the card holder or requester), with each transaction's date, description and amount, and a total per person, ready to send as reminders.",
      ].join('\n'),
  },
];

export const promptsFor = (tools: ReadonlySet<string>) => PROMPTS.filter((p) => p.tools.every((t) => tools.has(t)));

export function promptResult(prompt: FinancePrompt, args: Record<string, string | undefined>): GetPromptResult {
  return {
    description: prompt.description,
    messages: [{ role: 'user', content: { type: 'text', text: prompt.text(args) } }],
  };
}
