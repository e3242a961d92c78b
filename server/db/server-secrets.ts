// Server secrets not given in the environment are generated once and kept in the database, so
// cursors, signed URLs and encrypted card numbers survive a restart. Production passes them in.
import { randomBytes } from 'node:crypto';
import type { Db } from './database.js';
import type { Config } from '../config.js';

const ENV: Record<keyof Config['secrets'], string> = {
  cursor: 'CURSOR_SECRET',
  urls: 'URL_SIGNING_SECRET',
  panKey: 'PAN_ENCRYPTION_KEY',
  cvvKey: 'CVV_KEY',
};

export async function resolveSecrets(db: Db, env: NodeJS.ProcessEnv, secrets: Config['secrets']): Promise<Config['secrets']> {
  const resolved = { ...secrets };
  for (const [name, variable] of Object.entries(ENV) as Array<[keyof Config['secrets'], string]>) {
    if (env[variable]) continue;
    const stored = await db.selectFrom('server_secrets').select('value').where('name', '=', name).executeTakeFirst();
    if (stored) {
      resolved[name] = Buffer.from(stored.value, 'hex');
    } else {
      const fresh = randomBytes(32);
      await db.insertInto('server_secrets').values({ name, value: fresh.toString('hex') }).execute();
      resolved[name] = fresh;
    }
  }
  return resolved;
}
