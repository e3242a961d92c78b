// The docs page's search box: an index of the contract's sections, tags, operations and events, built
// with the page (not by the browser after the viewer has loaded), and a box over the viewer's own
// search trigger that answers from it as soon as the page is parsed. The viewer's full-text search
// stays one shortcut away (Ctrl+K) once its own index is built. Plain DOM code, inlined in the page.

type Json = Record<string, unknown>;

/** One result: what it is (an HTTP method, `section`, `tag`, `event`), its title, a subtitle, the link, and the words it is found by. */
export type SearchEntry = [kind: string, title: string, subtitle: string, href: string, words: string];

const METHODS = ['get', 'put', 'post', 'patch', 'delete'];

/** The viewer's slug of a heading or tag: `Rate limits` → `rate-limits`. */
const slug = (text: string) =>
  text
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9_]+/g, '-')
    .replace(/^-+|-+$/g, '');

/** The first sentence of a description, as plain text. */
const firstSentence = (text: unknown) =>
  String(text ?? '')
    .replace(/`|\*\*|\[([^\]]*)\]\([^)]*\)/g, '$1')
    .split(/(?<=\.)\s|\n\n/)[0]!
    .replace(/\s+/g, ' ')
    .trim();

/** `costCenterIds` → `cost center ids costcenterids`: found by its words and by its name. */
const wordsOf = (...texts: unknown[]) =>
  texts
    .map((t) => {
      const text = String(t ?? '');
      return `${text.replace(/([a-z])([A-Z])/g, '$1 $2')} ${text}`;
    })
    .join(' ')
    .toLowerCase()
    .replace(/[^a-z0-9_{}/.-]+/g, ' ')
    .trim();

const deref = (bundle: Json, node: unknown): Json => {
  const ref = (node as { $ref?: string } | undefined)?.$ref;
  if (!ref) return (node ?? {}) as Json;
  return ref
    .slice(2)
    .split('/')
    .reduce<unknown>((at, key) => (at as Json)[key], bundle) as Json;
};

/** The names of an operation's parameters and of its JSON body's top-level fields. */
function fieldNames(bundle: Json, item: Json, op: Json): string[] {
  const params = [...((item.parameters ?? []) as unknown[]), ...((op.parameters ?? []) as unknown[])].map((p) =>
    String(deref(bundle, p).name ?? ''),
  );
  const body = deref(bundle, op.requestBody);
  const schema = deref(bundle, (body.content as Record<string, Json> | undefined)?.['application/json']?.schema);
  return [...params, ...Object.keys((schema.properties ?? {}) as Json)];
}

/** The index of the page built from `bundle` (the docs bundle: its description holds the sections). */
export function searchEntries(bundle: Json): SearchEntry[] {
  const entries: SearchEntry[] = [];
  // Sections: the description's `##` headings; under a `#` heading (Error reasons), its `##` ones are its subsections.
  let parent: string | undefined;
  for (const line of String((bundle.info as Json).description ?? '').split('\n')) {
    const heading = /^(#{1,2}) (.+)$/.exec(line);
    if (!heading) continue;
    const [, level, title] = heading as unknown as [string, string, string];
    if (level === '#') {
      parent = slug(title);
      entries.push(['section', title, 'Guide', `#/section/${parent}`, wordsOf(title)]);
    } else {
      const href = parent ? `#/section/${parent}/${slug(title)}` : `#/section/${slug(title)}`;
      entries.push(['section', title, parent ? 'Error reason' : 'Guide', href, wordsOf(title)]);
    }
  }
  for (const tag of (bundle.tags ?? []) as Array<{ name: string; description?: string }>)
    entries.push(['tag', tag.name, firstSentence(tag.description), `#/${slug(tag.name)}`, wordsOf(tag.name)]);
  for (const [path, item] of Object.entries((bundle.paths ?? {}) as Record<string, Json>)) {
    for (const method of METHODS) {
      const op = item[method] as Json | undefined;
      if (!op) continue;
      const tag = String(((op.tags ?? []) as string[])[0] ?? '');
      entries.push([
        method.toUpperCase(),
        String(op.summary ?? op.operationId),
        path,
        `#/${slug(tag)}/${String(op.operationId).toLowerCase()}`,
        wordsOf(op.summary, path, op.operationId, tag, ...fieldNames(bundle, item, op), firstSentence(op.description)),
      ]);
    }
  }
  for (const item of Object.values((bundle.webhooks ?? {}) as Record<string, Json>)) {
    const op = item.post as Json | undefined;
    if (!op) continue;
    const tag = String(((op.tags ?? []) as string[])[0] ?? 'Webhooks');
    entries.push([
      'event',
      String(op.summary ?? op.operationId),
      firstSentence(op.description),
      `#/${slug(tag)}/${String(op.operationId).toLowerCase()}`,
      wordsOf(op.summary, op.operationId, op.description),
    ]);
  }
  return entries;
}

const STYLE = `
#docs-search{position:fixed;z-index:1001;display:none;font:14px sans-serif}
#docs-search input{box-sizing:border-box;width:100%;height:100%;padding:0 10px;border:1px solid var(--border-color-primary,#d0d0d8);border-radius:6px;background:var(--bg-color,#fff);font:14px sans-serif;color:var(--text-color-primary,#222)}
#docs-search ul{position:absolute;top:calc(100% + 4px);left:0;width:max(100%,460px);max-height:60vh;overflow:auto;margin:0;padding:4px 0;list-style:none;border-radius:8px;background:var(--bg-color-raised,#fff);box-shadow:0 4px 24px rgba(0,0,0,.25)}
#docs-search ul[hidden]{display:none}
#docs-search li a{display:block;padding:6px 12px;color:var(--text-color-primary,#222);text-decoration:none}
#docs-search li[aria-selected="true"] a,#docs-search li a:hover{background:var(--bg-color-active,#eef0fb)}
#docs-search .kind{display:inline-block;min-width:52px;margin-right:6px;font:600 11px monospace;color:var(--color-primary-base,#32329f)}
#docs-search .sub{display:block;margin-left:58px;font-size:12px;color:var(--text-color-secondary,#666);white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
#docs-search .hint{padding:6px 12px;font-size:12px;color:var(--text-color-secondary,#666)}
`;

// The box's script (plain JavaScript: it runs as is in the page, before the viewer's own code).
const SCRIPT = String.raw`
(() => {
  const IDLE_MS = 300;
  const QUIET_MS = 1000;
  const entries = JSON.parse(document.getElementById('docs-search-index').textContent || '[]');
  const box = document.getElementById('docs-search');
  const input = box.querySelector('input');
  const list = box.querySelector('ul');
  let shown = [];
  let selected = 0;
  // Over the viewer's search trigger, wherever the layout puts it; hidden where it is not shown.
  const place = () => {
    const trigger = document.querySelector('[data-testid="search-trigger"]');
    const rect = trigger && trigger.getBoundingClientRect();
    if (!rect || rect.width === 0) return void (box.style.display = 'none');
    Object.assign(box.style, { display: 'block', top: rect.top + 'px', left: rect.left + 'px', width: rect.width + 'px', height: Math.max(rect.height, 32) + 'px' });
  };
  // Once a frame at most: the viewer's rendering changes the page thousands of times.
  let pending = false;
  const schedule = () => {
    if (pending) return;
    pending = true;
    requestAnimationFrame(() => {
      pending = false;
      place();
    });
  };
  place();
  addEventListener('resize', schedule);
  new MutationObserver(schedule).observe(document.getElementById('redoc') || document.body, { childList: true, subtree: true });
  const score = (entry, words) => {
    const title = (entry[1] + ' ' + entry[2]).toLowerCase();
    let total = 0;
    for (const word of words) {
      const at = (' ' + entry[4]).indexOf(' ' + word);
      if (at < 0 && !entry[4].includes(word)) return 0;
      total += title.includes(word) ? 3 : at >= 0 ? 2 : 1;
    }
    return total;
  };
  const render = () => {
    list.replaceChildren();
    shown.forEach((entry, i) => {
      const li = document.createElement('li');
      li.setAttribute('role', 'option');
      li.setAttribute('aria-selected', String(i === selected));
      const a = document.createElement('a');
      a.href = entry[3];
      const kind = document.createElement('span');
      kind.className = 'kind';
      kind.textContent = entry[0];
      const sub = document.createElement('span');
      sub.className = 'sub';
      sub.textContent = entry[2];
      a.append(kind, entry[1], sub);
      li.append(a);
      list.append(li);
    });
    const hint = document.createElement('li');
    hint.className = 'hint';
    hint.textContent = shown.length === 0 ? 'Nothing found. Full-text search: Ctrl+K' : 'Full-text search of every field: Ctrl+K';
    list.append(hint);
    list.hidden = false;
  };
  const search = () => {
    const words = input.value.toLowerCase().split(/[^a-z0-9_{}/.-]+/).filter(Boolean);
    if (words.length === 0) return void (list.hidden = true);
    shown = entries
      .map((entry, order) => ({ entry, order, score: score(entry, words) }))
      .filter((r) => r.score > 0)
      .sort((a, b) => b.score - a.score || a.order - b.order)
      .slice(0, 20)
      .map((r) => r.entry);
    selected = 0;
    render();
  };
  const close = () => {
    list.hidden = true;
    input.blur();
  };
  // The viewer (Redoc) takes the page over in one long task (~0.8 s on a small machine) and the box
  // cannot answer meanwhile: it starts once the page has been idle a moment and nobody has typed in
  // the box for a second, or at once when a result is opened or the page was opened at a place in it
  // (the page is readable before: the viewer's markup is prerendered). The viewer's script hands
  // its start here (docs.ts).
  let startViewer = null;
  let typedAt = -Infinity;
  const viewerNow = () => {
    const start = startViewer;
    startViewer = null;
    if (!start) return;
    document.documentElement.dataset.viewer = 'started';
    start();
  };
  const viewerWhenIdle = (wait) =>
    setTimeout(() => {
      const quiet = performance.now() - typedAt;
      if (quiet < QUIET_MS) viewerWhenIdle(QUIET_MS - quiet);
      else viewerNow();
    }, wait);
  window.docsViewer = (start) => {
    startViewer = start;
    // A link to a place in the page (an error's docUrl) is for the viewer to scroll to: no wait.
    if (location.hash) viewerNow();
    else viewerWhenIdle(IDLE_MS);
  };
  // Before it starts, the viewer's prerendered links are plain paths (/section/rate-limits) that only it
  // can open: a click on one starts it and opens its place as the viewer's own link would.
  document.getElementById('redoc')?.addEventListener(
    'click',
    (event) => {
      const link = startViewer && event.target.closest('a[href^="/"]');
      if (!link || link.getAttribute('href') === '/changelog') return;
      event.preventDefault();
      viewerNow();
      location.hash = link.getAttribute('href');
    },
    true,
  );
  input.addEventListener('input', () => {
    typedAt = performance.now();
    search();
  });
  input.addEventListener('focus', () => input.value && search());
  input.addEventListener('keydown', (event) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      selected = Math.max(0, Math.min(shown.length - 1, selected + (event.key === 'ArrowDown' ? 1 : -1)));
      render();
    } else if (event.key === 'Enter' && shown[selected]) {
      viewerNow();
      location.hash = shown[selected][3].slice(1);
      close();
    } else if (event.key === 'Escape') close();
  });
  list.addEventListener('click', (event) => {
    if (!event.target.closest('a')) return;
    viewerNow();
    close();
  });
  document.addEventListener('click', (event) => !box.contains(event.target) && (list.hidden = true));
  document.addEventListener('keydown', (event) => {
    const typing = /^(INPUT|TEXTAREA|SELECT)$/.test((event.target && event.target.tagName) || '');
    if (event.key === '/' && !typing) {
      event.preventDefault();
      input.focus();
    }
  });
})();
`;

/** The box, its index and its script, placed before the viewer's script (docs.ts). */
export function searchHtml(entries: SearchEntry[]): string {
  const json = JSON.stringify(entries).replace(/</g, '\\u003c');
  return `<style>${STYLE}</style>
<div id="docs-search" role="search"><input type="search" placeholder="Search the API   /" aria-label="Search the API" autocomplete="off" spellcheck="false"><ul role="listbox" hidden></ul></div>
<script type="application/json" id="docs-search-index">${json}</script>
<script>${SCRIPT}</script>`;
}
