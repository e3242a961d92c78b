// The API's traffic beside an ingest: `clients` loops of the calls an integration makes while statements
// arrive — the banking list (two sortings), a PATCH of a transaction's notes, a supplier (names
// collide on purpose: 409) and a new cost center — each timed from the call to its answer.
export interface Call {
  what: string;
  status: number;
  /** When the call was made, ms on the bench's clock (performance.now()). */
  at: number;
  ms: number;
}

export interface Target {
  baseUrl: string;
  token: string;
  /** Banking transactions the PATCHes annotate. */
  ids: number[];
}

const KINDS = ['list', 'list', 'patch', 'supplier', 'cost center'] as const;

async function oneCall(t: Target, client: number, n: number): Promise<Call> {
  const kind = KINDS[n % KINDS.length]!;
  const headers = { authorization: `Bearer ${t.token}`, 'content-type': 'application/json' };
  const id = t.ids[(client * 7 + n) % t.ids.length]!;
  const [path, init]: [string, RequestInit] =
    kind === 'list'
      ? [`/statements/v1/banking?limit=20&sorting=${n % 2 ? 'brlAmount:desc' : 'transactionDate:desc'}`, { headers }]
      : kind === 'patch'
        ? [
            `/statements/v1/banking/${id}`,
            { method: 'PATCH', headers, body: JSON.stringify({ notes: `c${client} n${n}` }) },
          ]
        : kind === 'supplier'
          ? [
              '/suppliers/v1/suppliers',
              { method: 'POST', headers, body: JSON.stringify({ name: `Fornecedor ${n % 13}` }) },
            ]
          : [
              '/cost-centers/v1/cost-centers',
              { method: 'POST', headers, body: JSON.stringify({ name: `Centro ${client}-${n}-${Date.now()}` }) },
            ];
  const at = performance.now();
  const res = await fetch(`${t.baseUrl}${path}`, init);
  await res.arrayBuffer();
  return { what: kind, status: res.status, at, ms: performance.now() - at };
}

/** `clients` loops of calls until `until()` says stop; every call. */
export async function load(t: Target, clients: number, until: () => boolean): Promise<Call[]> {
  const calls: Call[] = [];
  await Promise.all(
    Array.from({ length: clients }, async (_, client) => {
      for (let n = 0; !until(); n += 1) calls.push(await oneCall(t, client, n));
    }),
  );
  return calls;
}

/** The p-th percentile (0–100) of the calls' times, nearest rank. */
export function percentile(calls: Call[], p: number): number {
  if (calls.length === 0) return 0;
  const sorted = calls.map((c) => c.ms).sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}
