// `finance events`: follow the company's events over the API (and forward them signed to a local
// receiver), or cause one by making the real change through the API. Client credentials only:
// `--base-url`, `--client-id`, `--client-secret` or FINANCE_BASE_URL, FINANCE_CLIENT_ID,
// FINANCE_CLIENT_SECRET; no database.
import type { Command } from 'commander';
import { apiSession, listenSecret, withApi, type ApiOptions } from '../api-session.js';
import { listenForEvents } from '../events.js';
import { TRIGGER_NOTES, TRIGGERS, triggerEvent, UNTRIGGERABLE } from '../triggers.js';
import { output } from '../options.js';
import type { Event } from '../trigger-calls.js';

const list = (value: string | undefined) =>
  value
    ?.split(',')
    .map((t) => t.trim())
    .filter(Boolean);

export function register(program: Command): void {
  const events = program.command('events').description('Follow and trigger events over the API');

  withApi(events.command('listen'))
    .description(
      "Print the company's events as they happen; with --forward-to, POST each one signed (Standard Webhooks) to a local URL",
    )
    .option('--forward-to <url>', 'receiver URL, e.g. http://localhost:3000/hooks')
    .option('--secret <whsec>', 'signing secret (default: one kept per machine and base URL, printed at start)')
    .option('--types <list>', 'only these event types (comma-separated)')
    .option('--poll-ms <ms>', 'how often to ask for new events', (v) => Number.parseInt(v, 10), 1000)
    .action(async (opts: ApiOptions & { forwardTo?: string; secret?: string; types?: string; pollMs: number }) => {
      const { api, baseUrl } = apiSession(opts);
      if (opts.forwardTo && !/^https?:\/\/[^/]/.test(opts.forwardTo))
        throw new Error(`--forward-to must be an http(s) URL (got ${opts.forwardTo})`);
      const stop = new AbortController();
      process.once('SIGINT', () => stop.abort());
      process.once('SIGTERM', () => stop.abort());
      process.stdout.write(`Listening for events of ${baseUrl} (Ctrl-C to stop)\n`);
      await listenForEvents({
        api,
        forwardTo: opts.forwardTo,
        secret: opts.secret ?? listenSecret(baseUrl),
        types: list(opts.types),
        pollMs: Math.max(50, opts.pollMs || 1000),
        signal: stop.signal,
        print: (line) => process.stdout.write(`${line}\n`),
      });
    });

  withApi(events.command('trigger'))
    .description(
      `Cause an event by making the real change through the API (${Object.keys(TRIGGERS).join(', ')}). ${Object.entries(
        TRIGGER_NOTES,
      )
        .map(([type, note]) => `${type} ${note}. `)
        .join('')}Not triggerable: ${UNTRIGGERABLE.join('; ')}`,
    )
    .argument('<type>', 'event type, e.g. cost_center.created')
    .option('--json', 'print the event as one JSON document')
    .action(async (type: string, opts: ApiOptions & { json?: boolean }) => {
      const event = await triggerEvent(apiSession(opts).api, type);
      if (opts.json) process.stdout.write(`${JSON.stringify(event, null, 2)}\n`);
      else
        output(false, {
          id: event.id,
          type: event.type,
          createdAt: event.createdAt,
          requestId: event.requestId,
          ...(event.data.authorization ? { authorization: purchaseLine(event.data.authorization) } : {}),
        });
    });
}

/** A card purchase of `vcn.authorized`/`vcn.declined` in one line: `declined LIMIT_EXCEEDED: BRL 600.00 at PAPELARIA CENTRAL (MCC 5943)`. */
function purchaseLine(a: NonNullable<Event['data']['authorization']>): string {
  const answer = a.approved
    ? `approved ${a.authorizationCode ?? ''}`.trim()
    : `declined ${a.declineReason ?? ''}`.trim();
  return `${answer}: ${a.amount.currency} ${a.amount.value.toFixed(2)} at ${a.merchant.name} (MCC ${a.merchant.mcc})`;
}
