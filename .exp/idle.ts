import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
const dir = process.argv[2]!;
for (const f of readdirSync(dir).filter((f) => f.endsWith('.cpuprofile') && f.split('.')[4] === '0')) {
  const p = JSON.parse(readFileSync(join(dir, f), 'utf8'));
  const byId = new Map<number, any>(p.nodes.map((n: any) => [n.id, n]));
  // per-second busy fraction
  let t = p.startTime; const buckets = new Map<number, [number, number]>();
  p.samples.forEach((id: number, i: number) => { const dt = p.timeDeltas[i]; t += dt; const s = Math.floor((t - p.startTime) / 1e6); const b = buckets.get(s) ?? [0, 0]; b[1] += dt; if (byId.get(id).callFrame.functionName !== '(idle)') b[0] += dt; buckets.set(s, b); });
  console.log([...buckets.entries()].map(([s, [busy, all]]) => `${s}:${Math.round(100 * busy / all)}%`).join(' '));
}
