// `node --import tsx test/support/drop-databases.ts <run prefix>`: drops a finished run's PostgreSQL
// databases. The global teardown starts it and does not wait: the ~150 drops of a run take ~12 s of the
// server's time, none of the run's.
import { dropDatabases, TEST_DATABASE_PREFIX } from './database.js';

const prefix = process.argv[2];
if (!prefix?.startsWith(TEST_DATABASE_PREFIX))
  throw new Error(`usage: drop-databases.ts ${TEST_DATABASE_PREFIX}<run>_`);
await dropDatabases((name) => name.startsWith(prefix));
