import { sql, type Kysely } from 'kysely';
import pg from 'pg';
import type { Database } from '../db/database.js';
import type { DB } from '../db/schema.js';

/**
 * pg-boss 10 has no notification of its own (its workers only poll), so instances tell each other about new jobs
 * with PostgreSQL's LISTEN/NOTIFY on this channel; the payload is the queue's name.
 */
export const WAKE_CHANNEL = 'fundraiser_job_queue';
const RECONNECT_DELAY_MS = 1000;

/**
 * Queues a notification in the caller's transaction: PostgreSQL delivers it to every listening instance when (and
 * only if) the transaction commits, so a worker is never woken for a job that does not exist yet. On the embedded
 * database the insert's own notification (below) already says the same, and PostgreSQL delivers the two as one.
 */
export async function notifyOnCommit(trx: Kysely<DB>, queue: string): Promise<void> {
  await sql`select pg_notify(${WAKE_CHANNEL}, ${queue})`.execute(trx);
}

/**
 * One dedicated connection that LISTENs for new jobs and calls `onWake(queue)` for each notification. A lost
 * connection is reopened after a second; meanwhile workers still find jobs by polling, and every queue is woken
 * once the connection is back, in case a notification was missed.
 */
export class WakeListener {
  private client: pg.Client | null = null;
  private stopped = false;
  private retry: NodeJS.Timeout | null = null;

  constructor(
    private readonly connectionString: string,
    private readonly onWake: (queue: string | null) => void,
    private readonly onError: (err: Error) => void = () => undefined,
  ) {}

  async start(): Promise<void> {
    this.stopped = false;
    await this.connect();
  }

  private async connect(): Promise<void> {
    const client = new pg.Client({ connectionString: this.connectionString });
    client.on('notification', (message) => this.onWake(message.payload ?? null));
    client.on('error', (err) => {
      this.onError(err);
      this.reconnectLater(client);
    });
    client.on('end', () => this.reconnectLater(client));
    this.client = client;
    await client.connect();
    await client.query(`listen ${WAKE_CHANNEL}`);
  }

  private reconnectLater(client: pg.Client) {
    if (this.stopped || this.client !== client || this.retry) return;
    this.client = null;
    client.end().catch(() => undefined);
    this.retry = setTimeout(() => {
      this.retry = null;
      if (this.stopped) return;
      this.connect()
        .then(() => this.onWake(null))
        .catch((err: unknown) => {
          this.onError(err as Error);
          if (this.client) this.reconnectLater(this.client);
        });
    }, RECONNECT_DELAY_MS);
    this.retry.unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.retry) clearTimeout(this.retry);
    this.retry = null;
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => undefined);
  }
}

/**
 * On the embedded database every job inserted due at once notifies its queue at commit, whichever path inserted it
 * (pg-boss's send, a bulk insert of enqueue-rows.ts, a dead letter): a statement trigger on pg-boss's job table, one
 * notification per queue and statement. The one process hears them through the database's own session, so its
 * idle workers wake as soon as there is work and their polls only have to find jobs that became due later
 * (docs/decisions/0054-embedded-workers-woken-in-process.md).
 */
function wakeOnInsertScript(schema: string): string {
  return `
    create or replace function ${schema}.fundraiser_wake_on_insert() returns trigger language plpgsql as $$
    begin
      perform pg_notify('${WAKE_CHANNEL}', due.name)
        from (select distinct name from inserted where start_after <= now()) due;
      return null;
    end $$;
    create or replace trigger fundraiser_wake_on_insert after insert on ${schema}.job
      referencing new table as inserted for each statement execute function ${schema}.fundraiser_wake_on_insert();`;
}

/**
 * Installs the trigger above and calls `onWake(queue)` for each queue with new work; resolves with the function that
 * stops listening, or null on a database whose other sessions may be other instances (PostgreSQL: WakeListener).
 */
export async function wakeInProcess(
  database: Database,
  schema: string,
  onWake: (queue: string) => void,
): Promise<(() => Promise<void>) | null> {
  if (!database.listenInProcess) return null;
  await database.runScript(wakeOnInsertScript(schema));
  return database.listenInProcess(WAKE_CHANNEL, onWake);
}
