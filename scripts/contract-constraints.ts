// Breaking changes that optic's breaking-change ruleset does not report: a tighter constraint on
// something a client sends (parameters and request bodies). A request that was valid against the
// released contract must stay valid, so a lower maxLength/maximum/maxItems, a higher
// minLength/minimum/minItems, a new or changed pattern, format, multipleOf or const, a new
// enum on a free value, or additionalProperties turned off all break callers.
type Schema = Record<string, unknown>;
type Doc = { paths?: Record<string, Record<string, unknown>> };

const methods = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
const upperBounds = ['maxLength', 'maxItems', 'maxProperties', 'maximum', 'exclusiveMaximum'];
const lowerBounds = ['minLength', 'minItems', 'minProperties', 'minimum', 'exclusiveMinimum'];
const exactKeywords = ['pattern', 'format', 'const'];

const isObject = (value: unknown): value is Schema =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** Follows local `#/...` refs (bundles only have local refs). */
function deref(doc: unknown, node: unknown): unknown {
  let current = node;
  for (let hops = 0; isObject(current) && typeof current.$ref === 'string' && hops < 32; hops++) {
    const pointer = current.$ref
      .replace(/^#\//, '')
      .split('/')
      .map((part) => part.replaceAll('~1', '/').replaceAll('~0', '~'));
    current = pointer.reduce<unknown>((at, key) => (isObject(at) ? at[key] : undefined), doc);
  }
  return current;
}

const json = (value: unknown) => JSON.stringify(value);

class Walker {
  readonly findings: string[] = [];
  private readonly seen = new Set<string>();
  constructor(
    private readonly base: Doc,
    private readonly head: Doc,
  ) {}

  schema(before: unknown, after: unknown, where: string): void {
    const refs = [before, after].map((node) => (isObject(node) && typeof node.$ref === 'string' ? node.$ref : ''));
    if (refs.some(Boolean)) {
      // A component pair is compared once: this ends recursive schemas and repeated reports.
      const key = refs.join('|');
      if (this.seen.has(key)) return;
      this.seen.add(key);
    }
    const b = deref(this.base, before);
    const h = deref(this.head, after);
    if (!isObject(b) || !isObject(h)) return;
    const report = (what: string) => this.findings.push(`${where}: ${what}`);

    for (const k of upperBounds) {
      if (typeof h[k] === 'number' && !(typeof b[k] === 'number' && h[k] >= b[k]))
        report(`${k} ${b[k] ?? 'unset'} → ${h[k]}`);
    }
    for (const k of lowerBounds) {
      if (typeof h[k] === 'number' && !(typeof b[k] === 'number' && h[k] <= b[k]))
        report(`${k} ${b[k] ?? 'unset'} → ${h[k]}`);
    }
    for (const k of exactKeywords) {
      if (h[k] !== undefined && json(h[k]) !== json(b[k])) report(`${k} ${json(b[k]) ?? 'unset'} → ${json(h[k])}`);
    }
    if (typeof h.multipleOf === 'number') {
      const ratio = typeof b.multipleOf === 'number' ? b.multipleOf / h.multipleOf : NaN;
      if (!(Math.abs(ratio - Math.round(ratio)) < 1e-9 && ratio >= 1))
        report(`multipleOf ${b.multipleOf ?? 'unset'} → ${h.multipleOf}`);
    }
    if (Array.isArray(h.enum) && !Array.isArray(b.enum)) report(`enum ${json(h.enum)} added`);
    if (h.additionalProperties === false && b.additionalProperties !== false) report('additionalProperties turned off');
    if (h.uniqueItems === true && b.uniqueItems !== true) report('uniqueItems added');

    const bProps = isObject(b.properties) ? b.properties : {};
    const hProps = isObject(h.properties) ? h.properties : {};
    for (const name of Object.keys(bProps)) {
      if (name in hProps) this.schema(bProps[name], hProps[name], `${where}.${name}`);
    }
    this.schema(b.items, h.items, `${where}[]`);
    this.schema(b.additionalProperties, h.additionalProperties, `${where}{*}`);
    for (const k of ['allOf', 'anyOf', 'oneOf', 'prefixItems']) {
      const bs = Array.isArray(b[k]) ? b[k] : [];
      const hs = Array.isArray(h[k]) ? h[k] : [];
      bs.forEach((item: unknown, i: number) => this.schema(item, hs[i], `${where}/${k}[${i}]`));
    }
  }

  operation(path: string, method: string): void {
    const bItem = deref(this.base, this.base.paths?.[path]);
    const hItem = deref(this.head, this.head.paths?.[path]);
    if (!isObject(bItem) || !isObject(hItem)) return;
    const bOp = deref(this.base, bItem[method]);
    const hOp = deref(this.head, hItem[method]);
    if (!isObject(bOp) || !isObject(hOp)) return; // removals are optic's
    const label = `${method.toUpperCase()} ${path}`;

    const params = (doc: Doc, item: Schema, op: Schema) => {
      const all = [
        ...(Array.isArray(item.parameters) ? item.parameters : []),
        ...(Array.isArray(op.parameters) ? op.parameters : []),
      ];
      const byKey = new Map<string, Schema>();
      for (const p of all.map((raw) => deref(doc, raw))) if (isObject(p)) byKey.set(`${p.in} parameter '${p.name}'`, p);
      return byKey;
    };
    const hParams = params(this.head, hItem, hOp);
    for (const [key, bParam] of params(this.base, bItem, bOp)) {
      const hParam = hParams.get(key);
      if (hParam) this.schema(bParam.schema, hParam.schema, `${label} ${key}`);
    }

    const content = (doc: Doc, op: Schema) => {
      const body = deref(doc, op.requestBody);
      return isObject(body) && isObject(body.content) ? body.content : {};
    };
    const hContent = content(this.head, hOp);
    for (const [mediaType, bMedia] of Object.entries(content(this.base, bOp))) {
      const hMedia = hContent[mediaType];
      if (isObject(bMedia) && isObject(hMedia))
        this.schema(bMedia.schema, hMedia.schema, `${label} request body (${mediaType})`);
    }
  }
}

/** One line per request constraint that `head` tightens compared with `base`. */
export function requestNarrowings(base: Doc, head: Doc): string[] {
  const walker = new Walker(base, head);
  for (const [path, item] of Object.entries(base.paths ?? {})) {
    for (const method of methods) if (isObject(item) && method in item) walker.operation(path, method);
  }
  return walker.findings;
}
