import type { Kysely } from 'kysely';
import { Gauge, type Registry } from 'prom-client';
import type { DB } from '../../infrastructure/db/schema.js';
import { readQueueStats, type QueueStats } from './queue-stats.js';

/**
 * Registers the queue gauges on `registry` (the app's, for /metrics): each scrape reads the queues once, however
 * many of the gauges it collects. A scrape that cannot reach the database leaves the gauges at their last values
 * rather than failing the whole /metrics answer.
 */
export function registerQueueGauges(registry: Registry, db: Kysely<DB>, options: { prefix?: string } = {}): void {
  const prefix = options.prefix ?? 'fundraiser_';
  // prom-client starts the collect() of every metric in registration order, then awaits them together: the first
  // gauge reads, the two after it share that read.
  let latest: Promise<QueueStats[] | null> = Promise.resolve(null);
  const read = (fresh: boolean) => {
    if (fresh) latest = readQueueStats(db).catch(() => null);
    return latest;
  };
  const gauge = (name: string, help: string, value: (stats: QueueStats) => number, fresh = false) =>
    new Gauge({
      name: `${prefix}${name}`,
      help,
      labelNames: ['queue'],
      registers: [registry],
      async collect() {
        const stats = await read(fresh);
        for (const s of stats ?? []) this.set({ queue: s.queue }, value(s));
      },
    });
  gauge('queue_waiting_jobs', 'Jobs due and not yet taken by a worker, per background queue.', (s) => s.waiting, true);
  gauge(
    'queue_scheduled_jobs',
    'Jobs waiting for a later start (retry backoff, next webhook attempt, next housekeeping run).',
    (s) => s.scheduled,
  );
  gauge(
    'queue_oldest_waiting_seconds',
    'Age of the oldest due job not yet taken, per background queue (0 when none waits).',
    (s) => s.oldestWaitingSeconds ?? 0,
  );
}
