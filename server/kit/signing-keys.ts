// Which keys open what the server signed. It signs with the current secret; during a rotation a
// token signed before opens with the secret it replaced (CURSOR_SECRET_PREVIOUS,
// URL_SIGNING_SECRET_PREVIOUS; docs/operating.md). Every reader of a signed token asks here, so none
// forgets the previous key.
import type { Config } from '../config.js';
import { sign, verify } from '../lib/signed-token.js';

type Secrets = Config['secrets'];
/** The current secret, then the previous one while a rotation lasts. */
type Keys = readonly [Buffer, Buffer | undefined];

/** List page keys and change-feed cursors: `CURSOR_SECRET`, then `CURSOR_SECRET_PREVIOUS`. */
const cursorKeys = (secrets: Pick<Secrets, 'cursor' | 'cursorPrevious'>): Keys => [
  secrets.cursor,
  secrets.cursorPrevious,
];

/** Signed URLs and the consent form: `URL_SIGNING_SECRET`, then `URL_SIGNING_SECRET_PREVIOUS`. */
export const urlKeys = (secrets: Pick<Secrets, 'urls' | 'urlsPrevious'>): Keys => [secrets.urls, secrets.urlsPrevious];

/** A cursor of `scope` carrying `payload`, signed with `CURSOR_SECRET`. */
export const signCursor = (secrets: Pick<Secrets, 'cursor'>, scope: unknown, payload: unknown) =>
  sign(secrets.cursor, scope, payload);

/** The payload of a genuine cursor of `scope`, signed with either cursor key; undefined otherwise. */
export const openCursor = (secrets: Pick<Secrets, 'cursor' | 'cursorPrevious'>, scope: unknown, cursor: string) =>
  verify(cursorKeys(secrets), scope, cursor);
