import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
const dir = process.argv[2]!; const count = Number(process.argv[3] ?? 60); const filter = process.argv[4];
const files = readdirSync(dir).filter((f) => f.endsWith('.cpuprofile') && f.split('.')[4] === '0').map((f) => join(dir, f));
const incl = new Map<string, number>(); const self = new Map<string, number>(); let total = 0;
for (const file of files) {
  const p = JSON.parse(readFileSync(file, 'utf8'));
  const byId = new Map<number, any>(p.nodes.map((n: any) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  let tt = p.startTime; const from = Number(process.env.FROM ?? 0) * 1e6; const to = Number(process.env.TO ?? 1e9) * 1e6;
  p.samples.forEach((id: number, i: number) => {
    tt += p.timeDeltas[i]; if (tt - p.startTime < from || tt - p.startTime > to) return;
    const f0 = byId.get(id).callFrame; if (f0.functionName === '(idle)') return;
    const dt = p.timeDeltas[i] ?? 0;
    const stack: any[] = [];
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) stack.push(byId.get(cur).callFrame);
    if (stack.some((f) => /compileSchema|Module\._load|module_job|^evaluate$|readFileUtf8/.test(f.functionName))) return;
    total += dt;
    { const f = stack[0]; const k = `${f.functionName || '(anon)'} ${f.url ? relative(process.cwd(), f.url.replace(/^file:\/\//, '')) + ':' + (f.lineNumber + 1) : ''}`; self.set(k, (self.get(k) ?? 0) + dt); }
    const seen = new Set<string>();
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const f = byId.get(cur).callFrame;
      const key = `${f.functionName || '(anon)'} ${f.url ? relative(process.cwd(), f.url.replace(/^file:\/\//, '')) + ':' + (f.lineNumber + 1) : ''}`;
      if (seen.has(key)) continue; seen.add(key);
      incl.set(key, (incl.get(key) ?? 0) + dt);
    }
  });
}
if (process.env.SELF) { for (const [k, v] of [...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, count)) console.log(((100 * v) / total).toFixed(1).padStart(5), '%', k); process.exit(0); }
const rows = [...incl.entries()].filter(([k]) => !filter || k.includes(filter)).sort((a, b) => b[1] - a[1]).slice(0, count);
for (const [k, v] of rows) console.log(((100 * v) / total).toFixed(1).padStart(5), '%', k);
