// "Give me all pages": async iterators that follow `nextPageStartKey` until the last page.
//   for await (const tx of client.paginate.bankingTransactions({ status: [2] })) { … }
import type { Client } from 'openapi-fetch';
import type { paths } from './generated/openapi.js';
import { unwrap } from './errors.js';

type GetOf<P extends keyof paths> = paths[P] extends { get: infer O } ? O : never;
type PageOf<P extends keyof paths> =
  GetOf<P> extends { responses: { 200: { content: { 'application/json': infer B } } } } ? B : never;
type ParametersOf<P extends keyof paths> = GetOf<P> extends { parameters: infer R } ? R : never;

/** Every path whose GET answers pages with a `nextPageStartKey`. */
export type PagedPath = {
  [P in keyof paths]: [PageOf<P>] extends [never] ? never : PageOf<P> extends { nextPageStartKey?: string } ? P : never;
}[keyof paths];

/** The array-valued members of a page (`transactions`, `items`, `data`). */
type ItemsKey<P extends PagedPath> = {
  [K in keyof PageOf<P>]-?: NonNullable<PageOf<P>[K]> extends readonly unknown[] ? K : never;
}[keyof PageOf<P>];

export type ItemOf<P extends PagedPath, K extends ItemsKey<P>> =
  NonNullable<PageOf<P>[K]> extends readonly (infer I)[] ? I : never;

/** The filters of a list: its query parameters without the cursor. */
export type ListQuery<P extends PagedPath> = Omit<
  NonNullable<ParametersOf<P> extends { query?: infer Q } ? Q : never>,
  'nextPageStartKey'
>;

interface ListParams<P extends PagedPath> {
  query?: ListQuery<P>;
  path?: ParametersOf<P> extends { path: infer T } ? T : never;
}

export interface PaginateOptions {
  /** Stop after this many items (no further page is requested). */
  maxItems?: number;
  /** Abort the iteration (the request in flight included). */
  signal?: AbortSignal;
}

type LooseGet = (
  path: string,
  init: { params: { query: Record<string, unknown>; path?: unknown }; signal?: AbortSignal | undefined },
) => Promise<{ data?: Record<string, unknown>; error?: unknown; response: Response }>;

/**
 * Yields every item of the list at `path` (the page member `itemsKey`), page after page, each once.
 * A failed page throws a FinanceApiError. Works for any paged list of the contract.
 */
export async function* paginate<P extends PagedPath, K extends ItemsKey<P>>(
  client: Client<paths>,
  path: P,
  itemsKey: K,
  params: ListParams<P> = {},
  options: PaginateOptions = {},
): AsyncGenerator<ItemOf<P, K>, void, undefined> {
  const get = client.GET as unknown as LooseGet;
  const max = options.maxItems ?? Number.POSITIVE_INFINITY;
  let count = 0;
  let cursor: string | undefined;
  while (count < max) {
    const query: Record<string, unknown> = {
      ...params.query,
      ...(cursor === undefined ? {} : { nextPageStartKey: cursor }),
    };
    const page = await unwrap(get(path, { params: { ...params, query }, signal: options.signal }));
    for (const item of (page[itemsKey as string] ?? []) as Array<ItemOf<P, K>>) {
      yield item;
      if (++count >= max) return;
    }
    cursor = typeof page.nextPageStartKey === 'string' ? page.nextPageStartKey : undefined;
    if (cursor === undefined) return;
  }
}

/** The named lists: `name: [path, member holding the items]`. */
const LISTS = {
  bankingTransactions: ['/statements/v1/banking', 'transactions'],
  creditCardTransactions: ['/statements/v1/credit-card', 'transactions'],
  bills: ['/credit-cards/v1/bills', 'items'],
  suppliers: ['/suppliers/v1/suppliers', 'items'],
  categories: ['/categories/v1/categories', 'items'],
  users: ['/users/v1/users', 'data'],
  roles: ['/users/v1/roles', 'items'],
  invites: ['/users/v1/invites', 'data'],
  cards: ['/credit-cards/v1/cards', 'items'],
} as const satisfies Record<string, { [P in PagedPath]: readonly [P, ItemsKey<P>] }[PagedPath]>;

type Lists = typeof LISTS;
type EntryItem<E> = E extends readonly [infer P extends PagedPath, infer K]
  ? K extends ItemsKey<P>
    ? ItemOf<P, K>
    : never
  : never;

export type Paginators = {
  [N in keyof Lists]: (
    query?: ListQuery<Lists[N][0]>,
    options?: PaginateOptions,
  ) => AsyncGenerator<EntryItem<Lists[N]>, void, undefined>;
};

export function paginators(client: Client<paths>): Paginators {
  return Object.fromEntries(
    Object.entries(LISTS).map(([name, [path, key]]) => [
      name,
      (query?: object, options?: PaginateOptions) =>
        paginate(client, path as PagedPath, key as never, { query } as never, options),
    ]),
  ) as Paginators;
}
