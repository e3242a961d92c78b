// The `finance` command end to end on a database file: run in this process (the same command tree as
// bin/finance.js) where a process of its own proves nothing; spawned for what needs one (the exit
// status a shell sees, `serve` and its signals).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { openStore } from '../server/db/store.js';
import { systemClock } from '../server/lib/clock.js';
import { financeInProcess, finance as runFinance } from './support/cli.js';
import { freshDatabase, sandboxEnv } from './support/database.js';

const run = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), 'finance-cli-'));
const dbPath = await freshDatabase(dir);
const finance = (...args: string[]) => runFinance([...args, '--db', dbPath], { LOG_LEVEL: 'silent' });

let company: { companyId: string; clientId: string; clientSecret: string; scopes: string[] };

beforeAll(async () => {
  company = JSON.parse(await finance('company', 'create', '--name', 'Padaria Pão Quente Ltda', '--json'));
}, 60_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('finance company create', () => {
  it('when run with --json, then it prints one JSON document with the new credentials and every scope', () => {
    expect(company.companyId).toMatch(/^[0-9a-f-]{36}$/);
    expect(company.clientId).toMatch(/^cli_[0-9a-f]{24}$/);
    expect(company.clientSecret).toMatch(/^sk_/);
    expect(company.scopes).toContain('vcn:reveal');
  });
});

describe('finance company create: inputs checked like API inputs', () => {
  const failure = (...args: string[]) =>
    finance(...args).then(
      () => undefined,
      (e: { code: number; stderr: string }) => e,
    );

  it('when the time zone is not an IANA zone, then it fails naming it and creates nothing', async () => {
    const e = await failure('company', 'create', '--name', 'Base Lunar Ltda', '--time-zone', 'Mars/Base', '--json');
    expect(e?.code).not.toBe(0);
    expect(e?.stderr).toMatch(/not an IANA time zone: Mars\/Base/);
  });

  it('when the name is empty or blank, then it fails', async () => {
    for (const name of ['', '   ']) {
      const e = await failure('company', 'create', '--name', name, '--json');
      expect(e?.stderr).toMatch(/must not be empty/);
    }
  });

  it('when a scope is unknown, then the error lists the known scopes', async () => {
    const e = await failure(
      'company',
      'create',
      '--name',
      'Escopo Ltda',
      '--scopes',
      'statements:read,admin',
      '--json',
    );
    expect(e?.stderr).toMatch(/unknown scopes: admin; known scopes: statements:read, statements:write/);
  });

  it('when a time zone other than the default is given, then the company is created', async () => {
    const created = JSON.parse(
      await finance('company', 'create', '--name', 'Manaus Ltda', '--time-zone', 'America/Manaus', '--json'),
    );
    expect(created.companyId).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('finance client create', () => {
  it('when given scopes, then the new client holds exactly those', async () => {
    const client = JSON.parse(
      await finance(
        'client',
        'create',
        '--company',
        company.companyId,
        '--scopes',
        'statements:read,users:read',
        '--json',
      ),
    );
    expect(client).toMatchObject({ companyId: company.companyId, scopes: ['statements:read', 'users:read'] });
  });

  it('when a scope is unknown, then it fails and creates nothing', async () => {
    await expect(
      finance('client', 'create', '--company', company.companyId, '--scopes', 'root:all', '--json'),
    ).rejects.toThrow(/unknown scopes/);
  });
});

describe('finance seed', () => {
  it('when run twice with the same seed on two companies, then both get the same amount of data', async () => {
    const other = JSON.parse(await finance('company', 'create', '--name', 'Outra Empresa SA', '--json'));
    await finance('seed', '--company', company.companyId, '--transactions', '300', '--seed', '7', '--json');
    await finance('seed', '--company', other.companyId, '--transactions', '300', '--seed', '7', '--json');
    const db = (await openStore(dbPath)).db;
    try {
      for (const id of [company.companyId, other.companyId]) {
        const { n } = await db
          .selectFrom('banking_transactions')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('company_id', '=', id)
          .executeTakeFirstOrThrow();
        expect(Number(n)).toBe(300);
      }
    } finally {
      await db.destroy();
    }
  }, 60_000);
});

describe('finance ingest', () => {
  const line = (accountId: number, brlAmount = 543.33) =>
    JSON.stringify({
      statement: 'banking',
      transaction: {
        transactionType: { id: 8, description: 'Compra internacional', icon: 'globe', subType: 'DEBIT' },
        status: 2,
        accountId,
        finalCardNumber: '4021',
        bearerName: 'MARIANA COSTA',
        transactionDate: '2026-11-18T14:32:05-03:00',
        brlAmount,
        usdAmount: 100,
        usdExchangeRate: 5.4333,
        usdExchangeRateDate: '2026-11-18T00:00:00-03:00',
        totalTransactionAmount: 562.35,
        iofAmount: 19.02,
        feeServiceAmount: 0,
        mccCode: 5462,
        mccGroup: 5,
        mccDescription: 'Padarias',
        idPurchaseEvent: 1,
        sourceDestinationName: 'MOINHO SAO JORGE',
        placeEstablishment: 'SAO PAULO - BR',
        description: 'Pix farinha',
        notes: '',
        conciliation: { description: 'Not reconciled', conciled: false },
        category: { id: 'FOOD', description: 'Alimentação' },
        costCenter: null,
        user: null,
        requesterUser: null,
        customCategory: null,
      },
    });
  const banking = async () => {
    const db = (await openStore(dbPath)).db;
    try {
      const account = await db
        .selectFrom('accounts')
        .select('id')
        .where('company_id', '=', company.companyId)
        .executeTakeFirstOrThrow();
      const { n } = await db
        .selectFrom('banking_transactions')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('company_id', '=', company.companyId)
        .executeTakeFirstOrThrow();
      return { accountId: Number(account.id), count: Number(n) };
    } finally {
      await db.destroy();
    }
  };

  it('when every line is valid, then all are stored; when one line is bad, then it is reported by number and nothing is stored', async () => {
    const before = await banking();
    const good = join(dir, 'good.jsonl');
    writeFileSync(good, `${line(before.accountId)}\n${line(before.accountId)}\n`);
    expect(JSON.parse(await finance('ingest', '--company', company.companyId, '--file', good, '--json'))).toMatchObject(
      { banking: 2, creditCard: 0 },
    );
    expect((await banking()).count).toBe(before.count + 2);

    const bad = join(dir, 'bad.jsonl');
    writeFileSync(bad, `${line(before.accountId)}\n${line(before.accountId, 543.333)}\n${line(before.accountId)}\n`);
    const failure = await finance('ingest', '--company', company.companyId, '--file', bad).then(
      () => undefined,
      (e: { code: number; stderr: string }) => e,
    );
    expect(failure?.code).not.toBe(0);
    expect(failure?.stderr).toMatch(/bad\.jsonl:2: .*brlAmount/);
    expect((await banking()).count).toBe(before.count + 2);
  }, 60_000);

  it('when the same file is ingested twice, then the row count is unchanged and the second run says every line was already ingested', async () => {
    const before = await banking();
    const path = join(dir, 'twice.jsonl');
    const withId = (externalId: string) => JSON.stringify({ ...JSON.parse(line(before.accountId)), externalId });
    writeFileSync(path, `${withId('twice-1')}\n${withId('twice-2')}\n`);
    expect(JSON.parse(await finance('ingest', '--company', company.companyId, '--file', path, '--json'))).toMatchObject(
      { banking: 2, alreadyIngested: 0 },
    );
    const second = await financeInProcess(['ingest', '--company', company.companyId, '--file', path, '--db', dbPath], {
      LOG_LEVEL: 'silent',
    });
    expect(second.stdout).toContain('banking: 0');
    expect(second.stderr).toContain('2 line(s) were already ingested and were skipped; nothing new was added');
    expect((await banking()).count).toBe(before.count + 2);
  }, 60_000);
});

describe('finance company list, client list|rotate|revoke', () => {
  it('when listing, then every company and client shows, without secrets', async () => {
    const { companies } = JSON.parse(await finance('company', 'list', '--json')) as {
      companies: Array<{ companyId: string; activeClients: number }>;
    };
    expect(companies.map((c) => c.companyId)).toContain(company.companyId);
    const { clients } = JSON.parse(await finance('client', 'list', '--company', company.companyId, '--json')) as {
      clients: Array<Record<string, unknown>>;
    };
    expect(clients.map((c) => c.clientId)).toContain(company.clientId);
    expect(JSON.stringify(clients)).not.toContain('sk_');
  });

  it('when a client is rotated, then the old secret stops working and the new one works; revoked, it shows as revoked', async () => {
    const created = JSON.parse(
      await finance('client', 'create', '--company', company.companyId, '--scopes', 'statements:read', '--json'),
    ) as { clientId: string; clientSecret: string };
    const rotated = JSON.parse(await finance('client', 'rotate', '--client', created.clientId, '--json')) as {
      clientSecret: string;
    };
    expect(rotated.clientSecret).toMatch(/^sk_/);
    expect(rotated.clientSecret).not.toBe(created.clientSecret);
    const db = (await openStore(dbPath)).db;
    try {
      const { authenticateClient } = await import('../server/areas/auth/store.js');
      expect(await authenticateClient(db, systemClock, created.clientId, created.clientSecret)).toBeUndefined();
      expect(await authenticateClient(db, systemClock, created.clientId, rotated.clientSecret)).toBeDefined();
    } finally {
      await db.destroy();
    }
    await finance('client', 'revoke', '--client', created.clientId, '--json');
    const { clients } = JSON.parse(await finance('client', 'list', '--json')) as {
      clients: Array<{ clientId: string; revokedAt: string | null }>;
    };
    expect(clients.find((c) => c.clientId === created.clientId)?.revokedAt).toBeTruthy();
  }, 60_000);
});

describe('--db', () => {
  it('when the database file does not exist, then every command but serve and company create fails naming it, and creates nothing', async () => {
    const missing = join(dir, 'typo.sqlite');
    // One spawn: the status the shell sees is the process's own.
    const spawned = await run('node', ['bin/finance.js', 'company', 'list', '--db', missing]).then(
      () => undefined,
      (e: { code: number; stderr: string }) => e,
    );
    expect(spawned?.code).toBe(1);
    expect(spawned?.stderr).toContain(`no database at ${missing}`);
    for (const args of [
      ['client', 'list'],
      ['seed', '--company', company.companyId],
      ['ingest', '--company', company.companyId, '--file', 'x.jsonl'],
    ]) {
      const failure = await financeInProcess([...args, '--db', missing]);
      expect(failure.code, args.join(' ')).toBe(1);
      expect(failure.stderr).toContain(`no database at ${missing}`);
    }
    expect(existsSync(missing)).toBe(false);
  }, 60_000);

  it('when help is shown, then required options are marked', async () => {
    const { code, stdout } = await financeInProcess(['ingest', '--help']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/--company <id>\s+company id \(required\)/);
    expect(stdout).toMatch(/--file <path>\s+JSON Lines file \(required\)/);
  });
});

describe('finance --help, a mistyped command', () => {
  it('when help is asked, then every command is listed', async () => {
    const { code, stdout } = await financeInProcess(['--help']);
    expect(code).toBe(0);
    const names = [...stdout.matchAll(/^ {2}([a-z-]+)\b/gm)].map((m) => m[1]);
    expect(names).toEqual(
      expect.arrayContaining(['serve', 'migrate', 'backup', 'mark-restored', 'company', 'client', 'apps', 'seed']),
    );
    expect(names).toEqual(
      expect.arrayContaining(['ingest', 'invite', 'cards', 'vcn', 'events', 'export', 'config', 'secrets', 'mcp']),
    );
  });

  it('when a command is mistyped, then it fails naming the command it resembles', async () => {
    const { code, stderr } = await financeInProcess(['compnay', 'list']);
    expect(code).toBe(1);
    expect(stderr).toContain("unknown command 'compnay'");
    expect(stderr).toContain('company');
  });
});

describe('finance serve', () => {
  it('when started on an empty database, then it prints demo credentials that work, and SIGTERM stops it cleanly; a restart keeps the data', async () => {
    const fresh = await freshDatabase(dir, 'serve.sqlite');
    const port = 20_000 + Math.floor(Math.random() * 20_000);
    const start = () => {
      const child = spawn('node', ['bin/finance.js', 'serve', '--db', fresh, '--port', String(port)], {
        env: { ...process.env, LOG_LEVEL: 'silent', ...sandboxEnv(fresh) },
      });
      let out = '';
      let err = '';
      child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
      const ready = new Promise<string>((resolve, reject) => {
        child.stdout.on('data', (chunk: Buffer) => {
          out += chunk.toString();
          if (out.includes('Token URL')) setTimeout(() => resolve(out), 100);
        });
        child.once('exit', (code) => reject(new Error(`serve exited early with ${code}: ${out}`)));
      });
      return { child, ready, stderr: () => err };
    };
    const first = start();
    const banner = await first.ready;
    const clientId = /client_id:\s+(\S+)/.exec(banner)?.[1];
    const clientSecret = /client_secret:\s+(\S+)/.exec(banner)?.[1];
    expect(clientId && clientSecret).toBeTruthy();
    const tokenRes = await fetch(`http://127.0.0.1:${port}/oauth/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: clientId!,
        client_secret: clientSecret!,
      }),
    });
    expect(tokenRes.status).toBe(200);
    const { access_token } = (await tokenRes.json()) as { access_token: string };
    const list = await fetch(`http://127.0.0.1:${port}/statements/v1/banking?limit=5`, {
      headers: { Authorization: `Bearer ${access_token}` },
    });
    expect(list.status).toBe(200);
    expect(((await list.json()) as { transactions: unknown[] }).transactions).toHaveLength(5);

    const exited = new Promise<number | null>((resolve) => first.child.once('exit', resolve));
    first.child.kill('SIGTERM');
    expect(await exited).toBe(0);

    const second = start();
    const banner2 = await second.ready;
    expect(banner2).toContain('already has companies');
    // The demo company is the sandbox's own: nothing to warn about.
    expect(second.stderr()).not.toContain('did not create');
    const companyId = /Demo company:\s+(\S+)/.exec(banner)?.[1];
    expect(banner2).toContain(`npx finance client create --db ${fresh} --company ${companyId} --scopes `);
    const again = await fetch(`http://127.0.0.1:${port}/statements/v1/banking?limit=5`, {
      headers: { Authorization: `Bearer ${access_token}` },
    });
    expect(again.status).toBe(200);
    second.child.kill('SIGTERM');
    await new Promise((resolve) => second.child.once('exit', resolve));
  }, 90_000);
});
