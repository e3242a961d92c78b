// How far a serving process lets its heap grow between full collections. By default V8 lets the old
// generation grow to about four times what survived the last full collection before collecting it
// again; a busy server promotes the objects of the requests in flight (50 connections waiting on a
// group commit), so a server with ~40 MB live reached ~150 MB of heap and ~290 MB resident under the
// bench's load, above a Fastify service doing the same work. V8's `--optimize-for-size` keeps that
// growth factor low (full collections come sooner, each cheap on a small live heap): the peak
// resident memory under the same load fell by a third (docs/performance.md, "Memory").
// Set by `bin/finance.js serve` before the modules load, and again by `serve` itself (a flag set on
// the running heap still applies: `npm run dev`). An operator's own choice in NODE_OPTIONS or on the
// command line (`--no-optimize-for-size`, `--heap-growing-percent`, a semi-space size) wins.
import { setFlagsFromString } from 'node:v8';

const OPERATOR_CHOICE = /optimize[-_]for[-_]size|heap[-_]growing[-_]percent|semi[-_]space/;

export function boundHeapGrowth(): void {
  const given = `${process.env.NODE_OPTIONS ?? ''} ${process.execArgv.join(' ')}`;
  if (!OPERATOR_CHOICE.test(given)) setFlagsFromString('--optimize-for-size');
}
