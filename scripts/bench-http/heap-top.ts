// The largest retainers of a V8 heap snapshot by constructor (self size summed per node name), and
// the strings and code kept, for finding what a server holds that its requests never use.
// Usage: node --import tsx scripts/bench-http/heap-top.ts <file.heapsnapshot> [count]
import { readFileSync } from 'node:fs';

interface Snapshot {
  snapshot: { meta: { node_fields: string[]; node_types: [string[]] } };
  nodes: number[];
  strings: string[];
}

/** Self size per `type:name` (objects by constructor; strings, code and arrays by their type), largest first. */
function heapTop(file: string, count = 25): string {
  const snap = JSON.parse(readFileSync(file, 'utf8')) as Snapshot;
  const fields = snap.snapshot.meta.node_fields;
  const types = snap.snapshot.meta.node_types[0];
  const width = fields.length;
  const [typeAt, nameAt, sizeAt] = ['type', 'name', 'self_size'].map((f) => fields.indexOf(f)) as [
    number,
    number,
    number,
  ];
  const sums = new Map<string, { bytes: number; count: number }>();
  let total = 0;
  for (let i = 0; i < snap.nodes.length; i += width) {
    const type = types[snap.nodes[i + typeAt]!]!;
    const name = type === 'object' || type === 'closure' ? snap.strings[snap.nodes[i + nameAt]!]! : '';
    const key = `${type}${name ? `:${name}` : ''}`;
    const size = snap.nodes[i + sizeAt]!;
    total += size;
    const s = sums.get(key) ?? { bytes: 0, count: 0 };
    s.bytes += size;
    s.count += 1;
    sums.set(key, s);
  }
  const mb = (b: number) => (b / 1024 / 1024).toFixed(2);
  const top = [...sums].sort((a, b) => b[1].bytes - a[1].bytes).slice(0, count);
  return [
    `heap ${mb(total)} MB`,
    '| retainer | MB | count |',
    '|---|---|---|',
    ...top.map(([k, s]) => `| ${k.slice(0, 60)} | ${mb(s.bytes)} | ${s.count} |`),
  ].join('\n');
}

process.stdout.write(`${heapTop(process.argv[2]!, Number(process.argv[3] ?? 25))}\n`);
