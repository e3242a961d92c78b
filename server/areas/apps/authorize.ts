// GET and POST /oauth/authorize: the consent page and its answer. Not an API operation (it is HTML
// for a person, outside the contract), mounted by the composition root. The form posts twice:
// `review` with the approval code shows the company it is for, `approve` claims the code and sends
// the app its authorization code (a script that knows the company may post `approve` at once);
// `deny` sends `access_denied`. Nothing else is ever sent to the app (authorize-request.ts).
// CSRF: a random cookie (HttpOnly, SameSite=Strict, path /oauth/authorize) and a form token, an
// HMAC of the cookie and the authorization request keyed from URL_SIGNING_SECRET (during a rotation,
// a form shown before it still posts: the previous secret's key is accepted too); the POST needs
// both to match. Wrong approval codes are counted per address like failed client authentications
// (throttled with 429 on the page).
import { recordAudit } from '../audit/public.js';
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import type { Db } from '../../db/database.js';
import type { Clock } from '../../lib/clock.js';
import type { Config } from '../../config.js';
import { ApiError } from '../../kit/errors.js';
import { urlKeys } from '../../kit/signing-keys.js';
import { writeTransaction } from '../../db/transaction.js';
import { assertNotThrottled, companyNameAndZone, recordFailure } from '../auth/public.js';
import { claimApprovalCode, peekApprovalCode } from './approval-codes.js';
import { consentPage, consentPolicy, errorPage } from './consent-page.js';
import { createGrantWithCode } from './grants.js';
import { markAppUsed } from './registration.js';
import { fieldsOf, readAuthorizeRequest, redirectTo, type ReadRequest } from './authorize-request.js';

const COOKIE = 'consent_csrf';

interface AuthorizeOptions {
  db: Db;
  clock: Clock;
  config: Config;
  /** The base URL the request was made to (the issuer). */
  baseUrlOf: (req: Request) => string;
}

const cookieOf = (req: Request): string | undefined => {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name === COOKIE) return value.join('=');
  }
  return undefined;
};

const same = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

export function authorizeRoutes({ db, clock, config, baseUrlOf }: AuthorizeOptions) {
  const csrfKeys = urlKeys(config.secrets)
    .filter((key) => key !== undefined)
    .map((key) => createHmac('sha256', key).update('consent-csrf').digest());
  const formToken = (cookie: string, fields: Record<string, string>, csrfKey = csrfKeys[0]!) =>
    createHmac('sha256', csrfKey)
      .update(`${cookie}\n${JSON.stringify(fields)}`)
      .digest('base64url');

  const send = (res: Response, status: number, html: string, redirectOrigin?: string) => {
    res.status(status);
    res.setHeader('Content-Security-Policy', consentPolicy(redirectOrigin));
    res.setHeader('Cache-Control', 'no-store');
    res.setHeader('X-Frame-Options', 'DENY');
    res.setHeader('Referrer-Policy', 'no-referrer');
    res.type('text/html').send(html);
  };

  const redirect = (res: Response, location: string) => {
    res.setHeader('Cache-Control', 'no-store');
    res.setHeader('Referrer-Policy', 'no-referrer');
    res.redirect(302, location);
  };

  const showConsent = (
    req: Request,
    res: Response,
    read: Extract<ReadRequest, { kind: 'consent' }>,
    status = 200,
    error?: string,
    approving?: { companyName: string; approvalCode: string; scopes: string[] },
  ) => {
    let cookie = cookieOf(req);
    if (!cookie || !/^[A-Za-z0-9_-]{43}$/.test(cookie)) {
      cookie = randomBytes(32).toString('base64url');
      const secure = baseUrlOf(req).startsWith('https:') ? '; Secure' : '';
      res.setHeader('Set-Cookie', `${COOKIE}=${cookie}; Path=/oauth/authorize; HttpOnly; SameSite=Strict${secure}`);
    }
    const html = consentPage({
      appName: read.app.name,
      clientId: read.app.id,
      redirectHost: new URL(read.redirectUri).host,
      scopes: approving?.scopes ?? read.scopes,
      fields: read.fields,
      csrf: formToken(cookie, read.fields),
      error,
      approving,
    });
    send(res, status, html, new URL(read.redirectUri).origin);
  };

  const answerOther = (res: Response, read: Exclude<ReadRequest, { kind: 'consent' }>) =>
    send(res, 400, errorPage(read.message));

  const show: RequestHandler = async (req, res, next) => {
    try {
      const fields = fieldsOf(req.query as Record<string, unknown>);
      if (typeof fields === 'string')
        return send(res, 400, errorPage(`The parameter ${fields} is repeated or malformed.`));
      const read = await readAuthorizeRequest(db, clock, fields, baseUrlOf(req));
      if (read.kind !== 'consent') return answerOther(res, read);
      showConsent(req, res, read);
    } catch (err) {
      next(err);
    }
  };

  const decide: RequestHandler = async (req, res, next) => {
    try {
      const body = (req.body ?? {}) as Record<string, unknown>;
      const fields = fieldsOf(body);
      if (typeof fields === 'string') return send(res, 400, errorPage(`The field ${fields} is repeated or malformed.`));
      const read = await readAuthorizeRequest(db, clock, fields, baseUrlOf(req));
      if (read.kind !== 'consent') return answerOther(res, read);
      const cookie = cookieOf(req);
      const csrf = typeof body.csrf === 'string' ? body.csrf : '';
      if (!cookie || !csrfKeys.some((key) => same(csrf, formToken(cookie, read.fields, key))))
        return send(
          res,
          403,
          errorPage('This form expired or was not sent from the consent page: open the link again.'),
        );
      const iss = baseUrlOf(req);
      if (body.decision === 'deny')
        return redirect(
          res,
          redirectTo(read.redirectUri, {
            error: 'access_denied',
            error_description: 'The company denied access',
            state: read.state,
            iss,
          }),
        );
      if (body.decision !== 'review' && body.decision !== 'approve')
        return showConsent(req, res, read, 400, 'Choose Continue or Deny.');
      const attempt = { clientId: 'consent approval code', address: req.ip ?? req.socket.remoteAddress ?? '' };
      const limits = { perSource: config.authSourceFailuresPerMinute, perClient: config.authFailuresPerMinute };
      try {
        await assertNotThrottled(db, attempt, clock.now(), limits);
      } catch (err) {
        if (err instanceof ApiError && err.status === 429) {
          res.setHeader('Retry-After', err.headers['Retry-After'] ?? '60');
          return showConsent(
            req,
            res,
            read,
            429,
            'Too many wrong approval codes from this address: wait a minute and try again.',
          );
        }
        throw err;
      }
      const entered = typeof body.approval_code === 'string' ? body.approval_code.trim() : '';
      const approval = entered ? await peekApprovalCode(db, clock, entered) : undefined;
      const scopes = approval ? read.scopes.filter((s) => !approval.ceiling || approval.ceiling.includes(s)) : [];
      const refused = async () => {
        await recordFailure(db, attempt, clock.now());
        const why =
          approval && scopes.length === 0
            ? 'This approval code does not allow any of the scopes the app asks for.'
            : 'The approval code is wrong, expired or already used.';
        showConsent(req, res, read, 400, why);
      };
      if (!approval || scopes.length === 0) return refused();
      // Continue: the company the code is for, and what the app gets within its ceiling, before approving.
      if (body.decision === 'review') {
        const company = await companyNameAndZone(db, approval.companyId);
        const approving = { companyName: company?.name ?? approval.companyId, approvalCode: entered, scopes };
        return showConsent(req, res, read, 200, undefined, approving);
      }
      const code = await writeTransaction(db, async (trx) => {
        if (!(await claimApprovalCode(trx, clock, approval.codeHash))) return undefined;
        await markAppUsed(trx, read.app.id);
        const seen = {
          companyId: approval.companyId,
          actor: read.app.id,
          target: read.app.id,
          ip: req.ip ?? null,
        };
        await recordAudit(trx, clock, { ...seen, action: 'approval_code.used' });
        await recordAudit(trx, clock, {
          ...seen,
          action: 'app.approved',
          details: { app: read.app.name, scopes, redirectHost: new URL(read.redirectUri).host },
        });
        return createGrantWithCode(trx, clock, {
          companyId: approval.companyId,
          appId: read.app.id,
          scopes,
          resource: read.resource,
          redirectUri: read.redirectUri,
          redirectUriImplied: read.redirectUriImplied,
          codeChallenge: read.codeChallenge,
        });
      });
      if (!code) return refused();
      redirect(res, redirectTo(read.redirectUri, { code, state: read.state, iss }));
    } catch (err) {
      next(err);
    }
  };

  const router = express.Router({ caseSensitive: true, strict: true });
  router.get('/oauth/authorize', show);
  router.post('/oauth/authorize', express.urlencoded({ extended: false, limit: '16kb' }), decide);
  router.all('/oauth/authorize', (_req: Request, _res: Response, next: NextFunction) =>
    next(new ApiError(405, 'Use GET or POST', [], { Allow: 'GET, POST' })),
  );
  return router;
}
