// Figures read from the database when metrics are scraped: the webhook delivery queue and ingest
// runs (counted by the statements area, their owner). Every worker and replica sees the same rows,
// so a cluster scrape keeps one value (`max`), not the sum. A store that cannot answer leaves the
// figures out of that scrape.
import { Gauge, type Registry } from 'prom-client';
import type { Db } from '../../db/database.js';
import { ingestRunsByStatus } from '../../areas/statements/public.js';
import { deliveriesByStatus, oldestPendingDelivery } from '../../areas/webhooks/public.js';

export function queueFigures(db: Db, registry: Registry): void {
  const registers = [registry];
  new Gauge({
    name: 'finance_webhook_deliveries',
    help: 'Webhook deliveries by status (pending, succeeded, failed).',
    labelNames: ['status'],
    aggregator: 'max',
    registers,
    async collect() {
      this.reset();
      const rows = await deliveriesByStatus(db).catch(() => []);
      for (const row of rows) this.set({ status: row.status }, Number(row.n));
    },
  });
  new Gauge({
    name: 'finance_webhook_oldest_pending_age_seconds',
    help: 'Age of the oldest webhook delivery still pending (0 when none is).',
    aggregator: 'max',
    registers,
    async collect() {
      this.reset();
      const row = await oldestPendingDelivery(db).catch(() => undefined);
      if (!row) return;
      this.set(row.oldest ? Math.max(0, (Date.now() - Date.parse(String(row.oldest))) / 1000) : 0);
    },
  });
  new Gauge({
    name: 'finance_ingest_runs',
    help: 'Statement ingest runs by status (LOADING, DONE).',
    labelNames: ['status'],
    aggregator: 'max',
    registers,
    async collect() {
      this.reset();
      const rows = await ingestRunsByStatus(db).catch(() => []);
      for (const row of rows) this.set({ status: row.status }, row.runs);
    },
  });
}
