// One scrape for every `--workers` process: the worker that gets `GET /metrics` asks the cluster
// primary, which gathers every worker's registries through prom-client's AggregatorRegistry (counters
// and histograms summed, database-derived gauges kept once) and answers with the text.
import cluster from 'node:cluster';
import { AggregatorRegistry, type Registry } from 'prom-client';

const ASK = 'finance:metrics-ask';
const ANSWER = 'finance:metrics-answer';
const ANSWER_WITHIN_MS = 5000;

interface Answer {
  type: typeof ANSWER;
  id: number;
  text?: string;
  error?: string;
}

/** In the primary: answers workers' requests for the whole cluster's metrics. */
export function serveClusterMetrics(): void {
  const aggregator = new AggregatorRegistry();
  cluster.on('message', (worker, message: { type?: string; id?: number }) => {
    if (message?.type !== ASK) return;
    aggregator.clusterMetrics().then(
      (text) => worker.send({ type: ANSWER, id: message.id, text }),
      (err: unknown) => worker.send({ type: ANSWER, id: message.id, error: String(err) }),
    );
  });
}

/** In a worker: these registries are what the primary gathers from this process. */
export function reportToPrimary(registries: Registry[]): void {
  // Constructing one installs prom-client's listener that answers the primary.
  new AggregatorRegistry();
  AggregatorRegistry.setRegistries(registries);
}

let nextId = 0;

/** In a worker: the whole cluster's metrics, from the primary. */
export function clusterMetrics(): Promise<string> {
  const id = (nextId += 1);
  return new Promise((resolve, reject) => {
    const onMessage = (message: Answer) => {
      if (message?.type !== ANSWER || message.id !== id) return;
      done();
      if (message.text !== undefined) resolve(message.text);
      else reject(new Error(message.error ?? 'no metrics'));
    };
    const timer = setTimeout(() => {
      done();
      reject(new Error('the cluster primary did not answer'));
    }, ANSWER_WITHIN_MS);
    const done = () => {
      clearTimeout(timer);
      process.off('message', onMessage);
    };
    process.on('message', onMessage);
    process.send?.({ type: ASK, id });
  });
}
