import type { Database } from '../db/database.js';
import { QUEUE_SCHEMA } from './enqueue.js';
import { databaseExecutor } from './sql-executor.js';

/**
 * Behind a pooler in transaction mode LISTEN cannot work: the session that listened goes back to the pool after its
 * statement, and a notification reaches whoever holds that session then, or nobody
 * (docs/decisions/0075-behind-a-transaction-pooler.md). Instead, each instance asks once per interval which of its
 * queues have a job due, in one statement over pg-boss's index of waiting jobs (name, start_after), and wakes their
 * idle workers: a job enqueued by another instance or the CLI starts within the interval, with one statement per
 * interval rather than one poll per queue.
 */
export class WakePoller {
  private timer: NodeJS.Timeout | null = null;
  private polling: Promise<void> | null = null;
  private stopped = true;

  constructor(
    private readonly database: Database,
    private readonly intervalMs: number,
    private readonly queues: () => string[],
    private readonly onWake: (queue: string) => void,
    private readonly onError: (err: Error) => void = () => undefined,
  ) {}

  start(): void {
    this.stopped = false;
    this.schedule();
  }

  private schedule() {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.polling = this.poll()
        .catch((err: unknown) => this.onError(err as Error))
        .finally(() => {
          this.polling = null;
          this.schedule();
        });
    }, this.intervalMs);
    this.timer.unref();
  }

  private async poll(): Promise<void> {
    const queues = this.queues();
    if (queues.length === 0) return;
    const { rows } = await databaseExecutor(this.database).executeSql(
      `select q.name from unnest($1::text[]) q(name)
        where exists (select 1 from ${QUEUE_SCHEMA}.job j
                       where j.name = q.name and j.state < 'active' and j.start_after <= now())`,
      [queues],
    );
    for (const row of rows) this.onWake(String((row as { name: string }).name));
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.polling;
  }
}
