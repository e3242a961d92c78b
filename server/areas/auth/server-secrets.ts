// Server secrets not given in the environment are generated once and kept in the database, so
// cursors, signed URLs and encrypted card numbers survive a restart and are the same in every
// worker and replica on the database. Production must pass them in (server/settings.ts refuses
// to start without them), so nothing is generated there.
import { randomBytes } from 'node:crypto';
import type { Db } from '../../db/database.js';
import type { Config } from '../../config.js';

type Generated = Exclude<
  keyof Config['secrets'],
  'cursorPrevious' | 'urlsPrevious' | 'panKeyPrevious' | 'idempotencyKeyPrevious'
>;

const ENV: Record<Generated, string> = {
  cursor: 'CURSOR_SECRET',
  urls: 'URL_SIGNING_SECRET',
  panKey: 'PAN_ENCRYPTION_KEY',
  cvvKey: 'CVV_KEY',
  idempotencyKey: 'IDEMPOTENCY_ENCRYPTION_KEY',
};

export async function resolveSecrets(
  db: Db,
  env: NodeJS.ProcessEnv,
  secrets: Config['secrets'],
): Promise<Config['secrets']> {
  const resolved = { ...secrets };
  for (const [name, variable] of Object.entries(ENV) as Array<[Generated, string]>) {
    if (env[variable]) continue;
    // Replicas starting together each offer a fresh secret; the first insert wins and everyone
    // reads back the one kept, so every process signs and encrypts with the same key.
    await db
      .insertInto('server_secrets')
      .values({ name, value: randomBytes(32).toString('hex') })
      .onConflict((oc) => oc.column('name').doNothing())
      .execute();
    const stored = await db
      .selectFrom('server_secrets')
      .select('value')
      .where('name', '=', name)
      .executeTakeFirstOrThrow();
    resolved[name] = Buffer.from(stored.value, 'hex');
  }
  return resolved;
}
