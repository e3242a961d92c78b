// verifyWebhook: the client's check of a delivery, against signatures made as the server makes them.
import { describe, expect, it } from 'vitest';
import { verifyWebhook, WebhookVerificationError } from '../client/index.js';
import { signatureHeaders } from '../server/areas/webhooks/sign.js';

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const OTHER = 'whsec_dGhpcyBpcyBhbm90aGVyIHNlY3JldCE=';
const body = JSON.stringify({
  id: 'evt_01JD3S2K8Z9Y7X6V5T4S3R2Q1P',
  type: 'cost_center.created',
  createdAt: '2026-11-20T15:04:05.123Z',
  requestId: null,
  data: {
    object: {
      id: '3f6c1f5e-8a4b-4d7e-9c21-5b0e7a9d2c14',
      companyId: '5d0c5a4e-2f7b-4a51-9d3c-1b8e6f2a7c90',
      name: 'Marketing',
    },
  },
});

describe('verifyWebhook', () => {
  it('when the body and headers are as sent, then the typed event is returned (Headers or a plain object)', () => {
    const headers = signatureHeaders('msg_1', new Date(), body, [SECRET]);
    const event = verifyWebhook(body, headers, SECRET);
    expect(event.type).toBe('cost_center.created');
    expect(verifyWebhook(new TextEncoder().encode(body), new Headers(headers), SECRET).id).toBe(event.id);
  });

  it('when two signatures are sent (a rotation), then either secret verifies', () => {
    const headers = signatureHeaders('msg_2', new Date(), body, [SECRET, OTHER]);
    expect(verifyWebhook(body, headers, SECRET).id).toBe(verifyWebhook(body, headers, OTHER).id);
  });

  it('when the body was altered, the secret is wrong or the timestamp is old, then WebhookVerificationError', () => {
    const headers = signatureHeaders('msg_3', new Date(), body, [SECRET]);
    expect(() => verifyWebhook(body.replace('Marketing', 'Vendas'), headers, SECRET)).toThrow(WebhookVerificationError);
    expect(() => verifyWebhook(body, headers, OTHER)).toThrow(WebhookVerificationError);
    const old = signatureHeaders('msg_3', new Date(Date.now() - 10 * 60_000), body, [SECRET]);
    expect(() => verifyWebhook(body, old, SECRET)).toThrow(WebhookVerificationError);
  });
});

describe('verifyWebhook with bad input', () => {
  const headers = signatureHeaders('msg_4', new Date(), body, [SECRET]);
  const cases: Array<[string, () => unknown]> = [
    ['an empty secret', () => verifyWebhook(body, headers, '')],
    ['a secret that is not base64', () => verifyWebhook(body, headers, 'whsec_not base64!')],
    ['a secret that is not a string', () => verifyWebhook(body, headers, undefined as unknown as string)],
    ['no signature headers', () => verifyWebhook(body, {}, SECRET)],
    ['headers that are not an object', () => verifyWebhook(body, null as never, SECRET)],
    ['a parsed body instead of the raw one', () => verifyWebhook(JSON.parse(body) as never, headers, SECRET)],
    [
      'a timestamp that is not a number',
      () => verifyWebhook(body, { ...headers, 'webhook-timestamp': 'soon' }, SECRET),
    ],
  ];
  for (const [what, verify] of cases) {
    it(`when given ${what}, then WebhookVerificationError (a handler answers 400, not 500)`, () => {
      expect(verify).toThrow(WebhookVerificationError);
    });
  }

  it('when the signature is right but the body is not JSON, then WebhookVerificationError', () => {
    const text = 'not json';
    expect(() => verifyWebhook(text, signatureHeaders('msg_5', new Date(), text, [SECRET]), SECRET)).toThrow(
      WebhookVerificationError,
    );
  });
});
