// `npm run bench -- --tail`: where the service's latency at many connections comes from. For each
// drive of the service it records what the process did meanwhile: its CPU time over the drive's wall
// time (how busy the event loop was), its GC pauses (the service runs with `--trace-gc`), and the
// connections the drive left in TIME-WAIT (connection churn: every closed connection leaves one).
// Beside them, Little's law: with c connections always waiting for an answer, the mean latency of a
// saturated server is c / throughput; a p99 near it is queueing, a p99 far above it a stall.
import { readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';

/** `--trace-gc` lines: `[pid:0x…]   1234 ms: Scavenge 12.1 (14.0) -> 11.2 (15.0) MB, 0.87 / 0.00 ms  (…)`. */
const GC_LINE = /\d+ ms: (Scavenge|Mark-Compact|Mark-sweep|Minor Mark-Sweep)[^,]*, ([\d.]+) \/ [\d.]+ ms/;

export class GcLog {
  private pauses: number[] = [];
  constructor(child: ChildProcess) {
    let rest = '';
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      const lines = (rest + chunk).split('\n');
      rest = lines.pop() ?? '';
      for (const line of lines) {
        const m = GC_LINE.exec(line);
        if (m) this.pauses.push(Number(m[2]));
      }
    });
  }
  /** The pauses since the last call, in ms. */
  take(): number[] {
    const taken = this.pauses;
    this.pauses = [];
    return taken;
  }
}

/** User + system CPU time of a process so far, in ms (Linux /proc; 0 elsewhere). */
export function cpuMs(pid: number | undefined): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]);
    return (ticks * 1000) / 100; // USER_HZ is 100 on Linux
  } catch {
    return 0;
  }
}

/** Sockets of `port` in TIME-WAIT (`ss`; -1 when it is missing). */
export function timeWait(port: number): number {
  const out = spawnSync('ss', ['-Htan', 'state', 'time-wait', `( sport = :${port} )`], { encoding: 'utf8' });
  return out.status === 0 ? out.stdout.split('\n').filter(Boolean).length : -1;
}

export interface TailSample {
  connections: number;
  rps: number;
  meanMs: number;
  p50: number;
  p99: number;
  /** CPU time over wall time during the drive. */
  busy: number;
  gcPauses: number[];
  seconds: number;
  timeWait: number;
}

export function tailTable(rows: Array<{ endpoint: string; sample: TailSample }>): string {
  const head = [
    'endpoint',
    'c',
    'req/s',
    'mean ms',
    "c / req/s (Little's law) ms",
    'p50 ms',
    'p99 ms',
    'p99 / p50',
    'CPU busy',
    'GC pauses',
    'longest GC ms',
    'GC share',
    'TIME-WAIT after',
  ];
  const lines = rows.map(({ endpoint, sample: s }) => {
    const gcTotal = s.gcPauses.reduce((a, b) => a + b, 0);
    return [
      endpoint,
      String(s.connections),
      String(Math.round(s.rps)),
      s.meanMs.toFixed(1),
      ((1000 * s.connections) / s.rps).toFixed(1),
      String(s.p50),
      String(s.p99),
      (s.p99 / Math.max(s.p50, 1)).toFixed(2),
      `${Math.round(100 * s.busy)} %`,
      String(s.gcPauses.length),
      Math.max(0, ...s.gcPauses).toFixed(1),
      `${((100 * gcTotal) / (1000 * s.seconds)).toFixed(1)} %`,
      String(s.timeWait),
    ];
  });
  return `| ${head.join(' | ')} |\n|${head.map(() => '---').join('|')}|\n${lines.map((l) => `| ${l.join(' | ')} |`).join('\n')}\n`;
}
