// The "try it" console of the docs page: a panel that gets a token with the caller's sandbox
// credentials and sends one call of the contract to the server the page was served from (never
// anywhere else), showing status, request id and body. Plain DOM code, inlined in the page.

/** One path or query parameter of an operation: a field of its own in the console. */
export interface ConsoleParameter {
  name: string;
  in: 'path' | 'query';
  required: boolean;
  /** The value the field starts with (the contract's example for path parameters and `limit`). */
  value: string;
  description: string;
}

/** The operations the console offers, from the contract: method, path, summary, parameters and example body. */
export interface ConsoleOperation {
  operationId: string;
  method: string;
  path: string;
  summary: string;
  parameters: ConsoleParameter[];
  body?: string;
  bodyType?: string;
}

const STYLE = `
#try-it-open{position:fixed;right:20px;bottom:20px;z-index:1000;padding:10px 16px;border:0;border-radius:6px;background:#32329f;color:#fff;font:600 14px sans-serif;cursor:pointer}
#try-it{position:fixed;right:20px;bottom:70px;z-index:1000;width:min(560px,calc(100vw - 40px));max-height:calc(100vh - 100px);overflow:auto;padding:16px;border-radius:8px;background:#fff;box-shadow:0 4px 24px rgba(0,0,0,.25);font:14px sans-serif;color:#222}
#try-it[hidden],#try-it [hidden]{display:none}
@media (max-width:600px){#try-it-open{right:auto;left:20px}#try-it{right:auto;left:20px}}
#try-it label{display:block;margin:8px 0 2px;font-weight:600}
#try-it input,#try-it select,#try-it textarea{box-sizing:border-box;width:100%;padding:6px;font:13px monospace}
#try-it textarea{height:120px}
#try-it button{margin-top:10px;padding:8px 14px;border:0;border-radius:4px;background:#32329f;color:#fff;cursor:pointer}
#try-it pre{max-height:300px;overflow:auto;padding:8px;background:#f5f5f5;white-space:pre-wrap;word-break:break-all}
`;

// The console's script (plain JavaScript: it runs as is in the page).
const SCRIPT = String.raw`
(() => {
  const operations = JSON.parse(document.getElementById('try-it-operations').textContent || '[]');
  const $ = (id) => document.getElementById(id);
  const select = $('try-it-operation');
  const list = (words) => {
    select.replaceChildren();
    for (const op of operations) {
      const text = (op.method + ' ' + op.path + ' ' + op.summary + ' ' + op.operationId).toLowerCase();
      if (!words.every((word) => text.includes(word))) continue;
      const option = document.createElement('option');
      option.value = op.operationId;
      option.textContent = op.method.toUpperCase() + ' ' + op.path + ' \u2014 ' + op.summary;
      select.append(option);
    }
    $('try-it-count').textContent = '(' + select.options.length + ')';
  };
  list([]);
  $('try-it-search').addEventListener('input', (event) => {
    list(event.target.value.toLowerCase().split(/\s+/).filter(Boolean));
    fill();
  });
  const current = () => operations.find((op) => op.operationId === select.value) || operations[0];
  // One labelled field per path and query parameter of the operation.
  const fill = () => {
    const op = current();
    if (!op) return;
    const fields = $('try-it-parameters');
    fields.replaceChildren();
    for (const p of op.parameters) {
      const label = document.createElement('label');
      label.htmlFor = 'try-it-param-' + p.name;
      label.textContent = p.name + (p.in === 'path' ? ' (path)' : ' (query)') + (p.required ? ' *' : '');
      label.title = p.description;
      const input = document.createElement('input');
      input.id = 'try-it-param-' + p.name;
      input.dataset.name = p.name;
      input.dataset.in = p.in;
      input.value = p.value;
      input.placeholder = p.required ? 'required' : 'optional';
      fields.append(label, input);
    }
    $('try-it-body').value = op.body || '';
    $('try-it-body-label').hidden = $('try-it-body').hidden = !op.bodyType;
  };
  select.addEventListener('change', fill);
  // The operation the reader is on: Redoc's address ends with the operationId in lower case.
  const fromAddress = () => {
    const last = decodeURIComponent(location.hash.split('/').pop() || '').toLowerCase();
    const op = operations.find((o) => o.operationId.toLowerCase() === last);
    if (!op) return false;
    $('try-it-search').value = '';
    list([]);
    select.value = op.operationId;
    fill();
    return true;
  };
  if (!fromAddress()) fill();
  if (location.hash === '#try-it') $('try-it').hidden = false;
  $('try-it-open').addEventListener('click', () => {
    if ($('try-it').hidden) fromAddress();
    $('try-it').hidden = !$('try-it').hidden;
  });
  let token = '';
  const show = (text) => { $('try-it-result').textContent = text; };
  $('try-it-token').addEventListener('click', async () => {
    const id = $('try-it-client-id').value.trim();
    const secret = $('try-it-client-secret').value.trim();
    const res = await fetch(location.origin + '/oauth/token', {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Authorization: 'Basic ' + btoa(id + ':' + secret) },
      body: 'grant_type=client_credentials',
    });
    const body = await res.json();
    token = body.access_token || '';
    show(token ? 'token received (' + res.status + '); now send a call' : res.status + '\n' + JSON.stringify(body, null, 2));
  });
  $('try-it-send').addEventListener('click', async () => {
    const op = current();
    if (!op) return;
    let path = op.path;
    const query = new URLSearchParams();
    for (const input of $('try-it-parameters').querySelectorAll('input')) {
      const value = input.value.trim();
      if (input.dataset.in === 'path') path = path.replace('{' + input.dataset.name + '}', encodeURIComponent(value));
      else if (value) query.append(input.dataset.name, value);
    }
    const body = op.bodyType ? $('try-it-body').value : '';
    const headers = {};
    if (token) headers.Authorization = 'Bearer ' + token;
    if (body && op.bodyType) headers['Content-Type'] = op.bodyType;
    const search = query.toString().replace(/%2C/g, ',');
    const res = await fetch(location.origin + path + (search ? '?' + search : ''), { method: op.method.toUpperCase(), headers, body: body || undefined });
    const text = await res.text();
    let pretty = text;
    try { pretty = JSON.stringify(JSON.parse(text), null, 2); } catch { /* not JSON: shown as is */ }
    show(res.status + ' ' + res.statusText + '\nX-Request-Id: ' + (res.headers.get('X-Request-Id') || '') + '\n\n' + pretty);
  });
})();
`;

/** The console's operations as the page holds them (in a JSON script element). */
export const consoleJson = (operations: ConsoleOperation[]) => JSON.stringify(operations).replace(/</g, '\\u003c');

/** The console's markup, style and script, to insert before `</body>`. */
export function consoleHtml(operations: ConsoleOperation[]): string {
  const json = consoleJson(operations);
  return `
<style>${STYLE}</style>
<button id="try-it-open" type="button">Try it</button>
<div id="try-it" hidden>
  <strong>Try a call against this server</strong>
  <p>Sandbox credentials are printed by <code>npm start</code> (or <code>finance client create</code>).</p>
  <label for="try-it-client-id">client_id</label><input id="try-it-client-id" autocomplete="off">
  <label for="try-it-client-secret">client_secret</label><input id="try-it-client-secret" type="password" autocomplete="off">
  <button id="try-it-token" type="button">Get token</button>
  <label for="try-it-search">Search operations</label><input id="try-it-search" type="search" placeholder="e.g. reconcile banking">
  <label for="try-it-operation">Operation <span id="try-it-count"></span></label><select id="try-it-operation"></select>
  <div id="try-it-parameters"></div>
  <label for="try-it-body" id="try-it-body-label">Body</label><textarea id="try-it-body"></textarea>
  <button id="try-it-send" type="button">Send</button>
  <pre id="try-it-result"></pre>
</div>
<script type="application/json" id="try-it-operations">${json}</script>
<script>${SCRIPT}</script>
`;
}
