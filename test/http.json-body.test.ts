// A JSON body is read by one of two readers: a plain one for what client libraries send (a
// Content-Length, no Content-Encoding, UTF-8: http/mechanisms/json-body.ts), body-parser for the rest
// (a charset parameter spelt otherwise, chunked, compressed). Whichever reads it, the same body gets the
// same answer: each body here is sent both ways and the two answers compared, status, reason and body.
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, createBankingTransaction } from './support/factories/statements.js';
import { startTestServer, type TestCompany, type TestServer } from './support/server.js';

let server: TestServer;
let acme: TestCompany;
let path: string;

beforeAll(async () => {
  server = await startTestServer();
  acme = await server.newCompany();
  const account = await createAccount(server.db, acme.companyId);
  path = `/statements/v1/banking/${await createBankingTransaction(server.db, acme.companyId, account, { status: 2 })}`;
});
afterAll(async () => server.close());

/** The transaction's notes as the API shows them. */
async function notes() {
  const res = await fetch(server.baseUrl + path, { headers: { Authorization: `Bearer ${acme.token}` } });
  return ((await res.json()) as { notes?: string }).notes;
}

/** The PATCH's answer with `body` as sent with `contentType`, its request id left out. */
async function patch(body: Buffer, contentType: string, init: RequestInit = {}) {
  const res = await fetch(server.baseUrl + path, {
    method: 'PATCH',
    body: new Uint8Array(body),
    ...init,
    headers: { Authorization: `Bearer ${acme.token}`, 'Content-Type': contentType, ...init.headers },
  });
  const text = await res.text();
  const answer = text ? (JSON.parse(text) as Record<string, unknown>) : undefined;
  delete answer?.requestId;
  return { status: res.status, ...(answer ? { answer } : {}) };
}

const tooManyMembers = `{"notes":"x",${Array.from({ length: 10_001 }, (_, i) => `"k${i}":0`).join(',')}}`;

const bodies: Array<[string, Buffer]> = [
  ['an object', Buffer.from('{"notes":"plain"}')],
  ['an object after a byte-order mark', Buffer.from('\ufeff{"notes":"marked"}')],
  ['an object after white space', Buffer.from(' \r\n\t{"notes":"spaced"}')],
  ['nothing (Content-Length: 0)', Buffer.alloc(0)],
  ['a string', Buffer.from('"notes"')],
  ['null', Buffer.from('null')],
  ['white space alone', Buffer.from('   ')],
  ['an array', Buffer.from('[{"notes":"listed"}]')],
  ['cut short', Buffer.from('{"notes": ')],
  ['bytes that are not UTF-8', Buffer.from([...Buffer.from('{"notes":"'), 0xff, 0xfe, ...Buffer.from('"}')])],
  ['an unpaired surrogate', Buffer.from('{"notes":"\\ud800"}')],
  ['more members than allowed', Buffer.from(tooManyMembers)],
];

describe('a JSON body, read plainly or by body-parser', () => {
  it.each(bodies)('when the body is %s, then both readers give the same answer', async (_name, body) => {
    const plain = await patch(body, 'application/json');
    const parsed = await patch(body, 'application/json; charset="UTF-8"; profile=x');
    expect(plain).toEqual(parsed);
    expect(plain.status).toBeLessThan(500);
  });

  it('when the body is an object, then either reader saves it', async () => {
    expect(await patch(Buffer.from('\ufeff{"notes":"once"}'), 'application/json; charset=utf-8')).toEqual({
      status: 204,
    });
    expect(await notes()).toBe('once');
    expect(await patch(Buffer.from('{"notes":"twice"}'), 'Application/JSON;charset=UTF-16')).toMatchObject({
      status: 400,
    });
    expect(await patch(Buffer.from('{"notes":"twice"}'), 'Application/JSON; charset=latin1')).toMatchObject({
      status: 415,
    });
    expect(await patch(Buffer.from('{"notes":"twice"}'), 'Application/JSON;charset=UTF-8')).toEqual({ status: 204 });
    expect(await notes()).toBe('twice');
  });

  it('when the body is chunked or compressed, then body-parser reads it as before', async () => {
    const chunked = await fetch(server.baseUrl + path, {
      method: 'PATCH',
      body: new Blob(['{"notes":"chunked"}']).stream(),
      duplex: 'half',
      headers: { Authorization: `Bearer ${acme.token}`, 'Content-Type': 'application/json' },
    } as RequestInit);
    expect(chunked.status).toBe(204);
    expect(await notes()).toBe('chunked');
    const compressed = await patch(gzipSync('{"notes":"compressed"}'), 'application/json', {
      headers: { 'Content-Encoding': 'gzip' },
    });
    expect(compressed).toEqual({ status: 204 });
    expect(await notes()).toBe('compressed');
  });
});
