// The server the checker drives: one real `finance serve` process on a migrated database holding
// one company (an account, a few categories, and a client with every scope), killed with SIGKILL
// and started again on the same database while clients keep sending. Clients read `baseUrl` at
// each request: a restarted process listens on another port. (Not the demo company a sandbox
// seeds on an empty store: seeding it costs more than a default run.)
import { ALL_SCOPES, createClient, createCompany } from '../../../server/areas/auth/store.js';
import { openStore } from '../../../server/db/store.js';
import { systemClock } from '../../../server/lib/clock.js';
import { createCategory } from '../factories/directory.js';
import { createAccount } from '../factories/statements.js';
import { startServerProcess, type ServerProcess } from '../processes.js';
import { quickHash } from '../secrets.js';

export class Target {
  /** When the process now serving started answering (ms, `performance.now()`); 0 while it is down. */
  upSince = 0;
  /** How many times the process was killed. */
  crashes = 0;

  private constructor(
    private readonly location: string,
    private process: ServerProcess,
    readonly token: string,
  ) {
    this.upSince = performance.now();
  }

  get baseUrl(): string {
    return this.process.baseUrl;
  }

  get up(): boolean {
    return this.upSince > 0;
  }

  /** Sets the company up on `location` (a migrated database), starts the first process and takes a token. */
  static async start(location: string): Promise<Target> {
    const store = await openStore(location);
    let credentials: { clientId: string; clientSecret: string };
    try {
      const companyId = await createCompany(store.db, systemClock, { name: 'Concorrência Ltda' });
      credentials = await createClient(store.db, systemClock, { companyId, scopes: ALL_SCOPES }, undefined, quickHash);
      await createAccount(store.db, companyId);
      for (let i = 0; i < 3; i++) await createCategory(store.db, companyId);
    } finally {
      await store.close();
    }
    const process = await startServerProcess(location);
    const res = await fetch(`${process.baseUrl}/oauth/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: credentials.clientId,
        client_secret: credentials.clientSecret,
      }),
    });
    if (res.status !== 200) throw new Error(`token request failed: ${res.status} ${await res.text()}`);
    const { access_token: token } = (await res.json()) as { access_token: string };
    return new Target(location, process, token);
  }

  /** SIGKILL, whatever is in flight, then a new process on the same database. */
  async crash(): Promise<void> {
    const { child } = this.process;
    this.upSince = 0;
    this.crashes++;
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;
    }
    this.process = await startServerProcess(this.location);
    this.upSince = performance.now();
  }

  stop(): Promise<void> {
    return this.process.stop();
  }
}
