// Every way of not getting a PostgreSQL connection is an outage, not a bug: refused, reset, timed out,
// or a FATAL answer at connect (55000 database not accepting connections, 57P03 starting up, 53300
// too many connections, 08xxx) → 503 with Retry-After on reads and writes, never 500; logged once
// when it starts and once when it ends, not per request.
import { createServer, type Server } from 'node:net';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isStoreUnavailable } from '../server/db/errors.js';
import { freshDatabase, onPostgres, withAdmin } from './support/database.js';
import { startTcpProxy, type TcpProxy } from './support/tcp-proxy.js';
import { startTestServer, type TestCompany, type TestServer } from './support/server.js';

// Read when the server's pool is made; put back for the files this worker runs next.
const connectTimeout = process.env.PG_CONNECT_TIMEOUT_MS;
beforeAll(() => {
  process.env.PG_CONNECT_TIMEOUT_MS = '1000';
});
afterAll(() => {
  if (connectTimeout === undefined) delete process.env.PG_CONNECT_TIMEOUT_MS;
  else process.env.PG_CONNECT_TIMEOUT_MS = connectTimeout;
});

describe('the classification of not getting a connection', () => {
  const fatal = (code: string) => Object.assign(new Error('refused'), { code, severity: 'FATAL' });
  it.each([
    ['refused', Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' })],
    ['reset', Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' })],
    ['timeout', new Error('timeout exceeded when trying to connect')],
    ['terminated', new Error('Connection terminated unexpectedly')],
    ['55000 FATAL', fatal('55000')],
    ['57P03', fatal('57P03')],
    ['53300', fatal('53300')],
    ['08006', fatal('08006')],
    ['28P01 FATAL', fatal('28P01')],
  ])('when the error is %s, then the store is unavailable', (_name, err) => {
    expect(isStoreUnavailable(err)).toBe(true);
  });

  it('when a 55000 is an ERROR of one statement, then it is not an outage', () => {
    expect(
      isStoreUnavailable(Object.assign(new Error('currval not yet defined'), { code: '55000', severity: 'ERROR' })),
    ).toBe(false);
  });
});

/** A server that answers every connection with a FATAL ErrorResponse of `code`, as PostgreSQL does at connect. */
function fatalAnswer(code: string) {
  const field = (type: string, value: string) => Buffer.concat([Buffer.from(type), Buffer.from(`${value}\0`)]);
  const fields = Buffer.concat([
    field('S', 'FATAL'),
    field('V', 'FATAL'),
    field('C', code),
    field('M', `simulated ${code}`),
    Buffer.from([0]),
  ]);
  const length = Buffer.alloc(4);
  length.writeInt32BE(fields.length + 4);
  return Buffer.concat([Buffer.from('E'), length, fields]);
}

async function listenFatal(port: number, code: string): Promise<Server> {
  const server = createServer((socket) => {
    socket.on('error', () => socket.destroy());
    socket.once('data', () => socket.end(fatalAnswer(code)));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  return server;
}

describe.runIf(onPostgres)('PostgreSQL not giving a connection, through the API', () => {
  let proxy: TcpProxy;
  let server: TestServer;
  let acme: TestCompany;
  let database: string;
  const lines: string[] = [];

  beforeAll(async () => {
    const direct = await freshDatabase();
    database = new URL(direct).pathname.slice(1);
    proxy = await startTcpProxy(5432);
    const logger = pino(
      { level: 'info' },
      new Writable({
        write(chunk, _enc, done) {
          lines.push(String(chunk));
          done();
        },
      }),
    );
    server = await startTestServer({ dbPath: direct.replace(':5432/', `:${proxy.port}/`), logger });
    acme = await server.newCompany();
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    await proxy?.close();
  });

  const logged = (text: string) => lines.filter((line) => line.includes(text)).length;

  /** Reads and a write: all 503 with Retry-After in the error body, or all 200/201 when `up`. */
  async function expectAnswers(up: boolean) {
    for (let i = 0; i < 3; i += 1) {
      const { response, error } = await acme.api.GET('/cost-centers/v1/cost-centers');
      if (up) expect(response.status).toBe(200);
      else {
        expect(response.status, JSON.stringify(error)).toBe(503);
        expect(response.headers.get('retry-after')).toBe('2');
        expect(error).toMatchObject({ code: 503, reason: 'service_unavailable' });
      }
    }
    const write = await acme.api.POST('/cost-centers/v1/cost-centers', {
      body: { name: `Outage ${Math.random()}` },
    });
    expect(write.response.status).toBe(up ? 201 : 503);
    if (!up) expect(write.response.headers.get('retry-after')).toBe('2');
  }

  /** Up again by itself, then exactly one more `unavailable` and one more `recovered` line. */
  async function expectOneOutageLogged(before: { down: number; up: number }) {
    for (let i = 0; i < 40; i += 1) {
      const { response } = await acme.api.GET('/cost-centers/v1/cost-centers');
      if (response.status === 200) break;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    await expectAnswers(true);
    expect(logged('database unavailable')).toBe(before.down + 1);
    expect(logged('database recovered')).toBe(before.up + 1);
  }
  const counts = () => ({ down: logged('database unavailable'), up: logged('database recovered') });

  it('when connections are refused and reset, then 503 with Retry-After on reads and writes, logged once', async () => {
    await expectAnswers(true);
    const before = counts();
    await proxy.cut();
    await expectAnswers(false);
    await proxy.restore();
    await expectOneOutageLogged(before);
  });

  it('when connecting times out, then 503 with Retry-After, logged once', async () => {
    const before = counts();
    await proxy.restore(); // drops the pool's connections
    proxy.block();
    await expectAnswers(false);
    await proxy.restore();
    await expectOneOutageLogged(before);
  }, 30_000);

  it('when the database does not allow connections (55000), then 503 with Retry-After, logged once', async () => {
    const before = counts();
    await withAdmin(async (c) => {
      await c.query(`alter database ${database} allow_connections false`);
      await c.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1', [database]);
    });
    try {
      await expectAnswers(false);
    } finally {
      await withAdmin((c) => c.query(`alter database ${database} allow_connections true`));
    }
    await expectOneOutageLogged(before);
  });

  it.each(['57P03', '53300', '08004'])(
    'when PostgreSQL answers FATAL %s at connect, then 503 with Retry-After, logged once',
    async (code) => {
      const before = counts();
      await proxy.cut();
      const fake = await listenFatal(proxy.port, code);
      try {
        await expectAnswers(false);
      } finally {
        await new Promise((resolve) => fake.close(resolve));
      }
      await proxy.restore();
      await expectOneOutageLogged(before);
    },
  );
});
