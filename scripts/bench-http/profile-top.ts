// The functions with the most self time in V8 CPU profiles (`node --cpu-prof`), in % of busy time.
// Usage: node --import tsx scripts/bench-http/profile-top.ts <file.cpuprofile | folder> [count]
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}
interface Profile {
  nodes: Node[];
  samples: number[];
  timeDeltas: number[];
}

export function topSelfTime(files: string[], count = 10): string {
  const self = new Map<string, number>();
  let total = 0;
  for (const file of files) {
    const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
    const byId = new Map(profile.nodes.map((n) => [n.id, n]));
    profile.samples.forEach((id, i) => {
      const frame = byId.get(id)!.callFrame;
      if (frame.functionName === '(idle)') return; // waiting for I/O is not CPU time
      const where = frame.url
        ? `${relative(process.cwd(), frame.url.replace(/^file:\/\//, ''))}:${frame.lineNumber + 1}`
        : '';
      const key = `${frame.functionName || '(anonymous)'} ${where}`.trim();
      const dt = profile.timeDeltas[i] ?? 0;
      self.set(key, (self.get(key) ?? 0) + dt);
      total += dt;
    });
  }
  const rows = [...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, count);
  return rows.map(([key, us]) => `${((100 * us) / total).toFixed(1).padStart(5)} %  ${key}`).join('\n');
}

/** The main-thread profiles in `folder` (`CPU.<date>.<time>.<pid>.<thread>.<n>.cpuprofile`, thread 0). */
export const mainThreadProfiles = (folder: string) =>
  readdirSync(folder)
    .filter((f) => f.endsWith('.cpuprofile') && f.split('.')[4] === '0')
    .map((f) => join(folder, f));

const [target, count] = process.argv.slice(2);
if (target && process.argv[1]?.endsWith('profile-top.ts')) {
  const files = statSync(target).isDirectory() ? mainThreadProfiles(target) : [target];
  process.stdout.write(`${topSelfTime(files, Number(count ?? 10))}\n`);
}
