// How far a serving process lets its heap grow between full collections. By default V8 lets the old
// generation grow to about four times what survived the last full collection before collecting it
// again; a busy server promotes the objects of the requests in flight (50 connections waiting on a
// group commit), so a server with ~40 MB live peaked at ~150 MB of heap and ~290 MB resident, twice
// a Fastify service doing the same work. V8's `--optimize-for-size` keeps the growth factor low
// (full collections come sooner, each cheap on a small live heap) and the young generation lean:
// the peak resident memory under the bench's load fell by a third (docs/performance.md, "Memory").
// Set at start by `serve` (it takes effect on the running heap); an operator's own choice in
// NODE_OPTIONS or on the command line (`--no-optimize-for-size`, `--max-semi-space-size`…) wins.
import { setFlagsFromString } from 'node:v8';

const OPERATOR_CHOICE = /optimize[-_]for[-_]size|heap[-_]growing[-_]percent|semi[-_]space/;

export function boundHeapGrowth(): void {
  const given = `${process.env.NODE_OPTIONS ?? ''} ${process.execArgv.join(' ')}`;
  if (!OPERATOR_CHOICE.test(given)) setFlagsFromString('--optimize-for-size');
}
