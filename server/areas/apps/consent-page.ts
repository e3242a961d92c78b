// The consent page: server-rendered HTML, no script, one inline style allowed by its hash. It names
// the service, the app, where the answer goes (the redirect URI's host) and each scope asked for in
// plain words. Nobody logs in here, so the company is known only from the one-time approval code:
// the administrator enters it and continues (or denies), then the page names the company the code
// is for and the scopes the app will get within the code's ceiling, and the administrator approves
// (or denies).
import { createHash } from 'node:crypto';
import { SCOPE_WORDS } from './scope-words.js';

const STYLE = `body{margin:0;font-family:Roboto,-apple-system,BlinkMacSystemFont,"Segoe UI",Helvetica,Arial,sans-serif;background:#fafafa;color:#333}
main{max-width:34rem;margin:3rem auto;padding:2rem;background:#fff;border:1px solid #e5e5e5;border-radius:6px}
h1{font-size:1.4rem;margin:0 0 1rem;color:#32329f}
ul{padding-left:1.2rem}li{margin:.4rem 0}code{background:#f2f2f2;padding:0 .2rem;border-radius:3px}
label{display:block;margin:1.2rem 0 .3rem;font-weight:600}
input[type=text]{width:100%;box-sizing:border-box;padding:.5rem;font-family:Courier,monospace;font-size:1rem}
.error{background:#fdecea;border:1px solid #d41f1c;color:#d41f1c;padding:.6rem;border-radius:4px}
.actions{margin-top:1.4rem;display:flex;gap:.8rem}
button{padding:.55rem 1.2rem;font-size:1rem;border-radius:4px;border:1px solid #32329f;cursor:pointer}
button[value=approve]{background:#32329f;color:#fff}button[value=deny]{background:#fff;color:#32329f}
.small{font-size:.85rem;color:#666}`;

/** The service every page names: the one the app asks to act on. */
const SERVICE_NAME = 'Company Finance Service';

const STYLE_HASH = `'sha256-${createHash('sha256').update(STYLE, 'utf8').digest('base64')}'`;

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** The page's CSP: nothing but its style; forms post here and redirect only to the app's origin. */
export function consentPolicy(redirectOrigin?: string): string {
  return [
    "default-src 'none'",
    `style-src ${STYLE_HASH}`,
    `form-action 'self'${redirectOrigin ? ` ${redirectOrigin}` : ''}`,
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ].join('; ');
}

const page = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="referrer" content="no-referrer"><title>${escapeHtml(title)}</title><style>${STYLE}</style></head><body><main>${body}</main></body></html>`;

/** An authorization request that cannot be answered to the app: said here, never redirected. */
export function errorPage(message: string): string {
  return page(
    'Authorization request refused',
    `<p class="small">${SERVICE_NAME}</p><h1>This authorization request cannot be processed</h1><p class="error">${escapeHtml(message)}</p><p class="small">Nothing was sent to the app. Ask its developer to check how it starts the authorization.</p>`,
  );
}

interface ConsentView {
  appName: string;
  clientId: string;
  redirectHost: string;
  scopes: string[];
  /** The authorization request, carried in hidden fields to the POST. */
  fields: Record<string, string>;
  csrf: string;
  error?: string;
  /** The second step: the company the approval code is for, and the code, carried to the approval. */
  approving?: { companyName: string; approvalCode: string };
}

const hiddenFields = (fields: Record<string, string>) =>
  Object.entries(fields)
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join('');

export function consentPage(view: ConsentView): string {
  const app = `<strong>${escapeHtml(view.appName)}</strong>`;
  const scopes = view.scopes
    .map(
      (s) =>
        `<li>${escapeHtml(SCOPE_WORDS[s as keyof typeof SCOPE_WORDS] ?? s)} <span class="small">(<code>${escapeHtml(s)}</code>)</span></li>`,
    )
    .join('');
  const about = `<p class="small">${SERVICE_NAME}</p>`;
  const where = `After you decide, you go back to <strong>${escapeHtml(view.redirectHost)}</strong>.`;
  const error = view.error ? `<p class="error" role="alert">${escapeHtml(view.error)}</p>` : '';
  const revoke = `<p class="small">You can revoke this app at any time (<code>DELETE /apps/v1/grants/{id}</code>).</p>`;
  if (view.approving) {
    const company = `<strong>${escapeHtml(view.approving.companyName)}</strong>`;
    const hidden = hiddenFields({ ...view.fields, csrf: view.csrf, approval_code: view.approving.approvalCode });
    return page(
      `Approve ${view.appName} for ${view.approving.companyName} – ${SERVICE_NAME}`,
      `${about}<h1>Approve ${app} for ${company}?</h1>
<p>${app} <span class="small">(${escapeHtml(view.clientId)})</span> will act for ${company} on ${SERVICE_NAME}. ${where}</p>
<p>It will be able to:</p><ul>${scopes}</ul>
${error}<form method="post" action="/oauth/authorize">${hidden}
<div class="actions"><button type="submit" name="decision" value="approve">Approve</button><button type="submit" name="decision" value="deny">Deny</button></div>
</form>
${revoke}`,
    );
  }
  return page(
    `Approve ${view.appName}? – ${SERVICE_NAME}`,
    `${about}<h1>Approve ${app} for your company?</h1>
<p>${app} <span class="small">(${escapeHtml(view.clientId)})</span> asks to act for your company on ${SERVICE_NAME}. ${where}</p>
<p>It asks to be able to:</p><ul>${scopes}</ul>
${error}<form method="post" action="/oauth/authorize">${hiddenFields({ ...view.fields, csrf: view.csrf })}
<label for="approval_code">Approval code</label>
<input type="text" id="approval_code" name="approval_code" autocomplete="one-time-code" spellcheck="false" maxlength="64">
<p class="small">A one-time code from your company's administrator (<code>POST /apps/v1/approval-codes</code> or <code>npx finance apps approval-code</code>): it names your company, which the next page shows before you approve. Needed to continue, not to deny.</p>
<div class="actions"><button type="submit" name="decision" value="review">Continue</button><button type="submit" name="decision" value="deny">Deny</button></div>
</form>
${revoke}`,
  );
}
