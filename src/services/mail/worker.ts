import type { Logger } from 'pino';
import type { MailPolicy } from '../../config/mail.js';
import type { Database } from '../../infrastructure/db/connect.js';
import type { JobQueue, QueuedJob } from '../../infrastructure/queue/job-queue.js';
import { JobDeferred } from '../../infrastructure/queue/job-workers.js';
import { MAIL_DELIVERY_QUEUE, MAIL_HEARTBEAT_SECONDS } from '../../infrastructure/queue/queues.js';
import { smtpTransport, type MailTransport } from '../../infrastructure/mail/smtp.js';
import { releaseHeld } from '../../infrastructure/repositories/mail-outbox.js';
import type { MailDeliveryJob } from '../jobs/definitions.js';
import { deliverBatch, destinationOf, type MailDeps } from './deliver.js';
import type { MailContent } from './outbox.js';

/**
 * Works the mail-delivery queue (one job per message) in batches of MAIL_BATCH_SIZE, with two workers so that one
 * prepares its batch (one transaction for all of it) while the other's messages are on the wire; with
 * MAIL_CONCURRENCY=1, one worker. Messages leave over at most MAIL_CONCURRENCY pooled SMTP connections, one message
 * on each at a time, the others of the batches waiting their turn in the pool. A batch larger than the connections
 * shares a batch's fixed costs (the fetch, the preparing transaction, the record of those sent, the completion)
 * between more messages (docs/decisions/0053-mail-batches-apart-from-connections.md). At start, when this instance
 * can send (SMTP_URL, and in production or with a QA inbox), messages held while it could not are queued again.
 * Log lines name messages and their kind, never an address or what a message says.
 */
export class MailDeliveryWorker {
  private readonly deps: MailDeps;

  constructor(
    private readonly queue: JobQueue,
    private readonly database: Database,
    policy: MailPolicy,
    content: MailContent,
    private readonly log?: Pick<Logger, 'info' | 'warn'>,
    transport?: MailTransport | null,
  ) {
    const smtp =
      transport !== undefined
        ? transport
        : policy.smtpUrl
          ? smtpTransport(policy.smtpUrl, policy.timeoutMs, policy.concurrency)
          : null;
    this.deps = { db: database.db, policy, transport: smtp, content };
  }

  async start(): Promise<void> {
    if (this.database.kind === 'embedded') await this.queue.retryOrphanedJobs(MAIL_DELIVERY_QUEUE);
    if ('to' in destinationOf(this.deps.policy, 'recipient', this.deps.transport !== null)) {
      const released = await this.database.db.transaction().execute((trx) => releaseHeld(trx));
      if (released > 0) this.log?.info({ released }, 'held messages queued again');
    }
    const workers = Math.min(2, this.deps.policy.concurrency);
    const { batchSize } = this.deps.policy;
    await this.queue.workBatches<MailDeliveryJob>(
      MAIL_DELIVERY_QUEUE,
      { pollingIntervalSeconds: 2, concurrency: workers, batchSize, heartbeatSeconds: MAIL_HEARTBEAT_SECONDS },
      (jobs) => this.deliver(jobs),
    );
  }

  stop(): void {
    this.deps.transport?.close();
  }

  /** Runs every waiting message now, in this process (tests, operators); with `now`, retries not due yet too. */
  runPending(options: { now?: boolean } = {}): Promise<number> {
    return this.queue.drainBatches<MailDeliveryJob>(
      MAIL_DELIVERY_QUEUE,
      this.deps.policy.batchSize,
      (jobs) => this.deliver(jobs),
      options,
    );
  }

  private async deliver(jobs: QueuedJob<MailDeliveryJob>[]): Promise<Map<string, Error>> {
    const outcome = await deliverBatch(
      this.deps,
      jobs.map((job) => ({ ...job, messageId: job.data.messageId })),
    ).catch((err: unknown) => {
      // The batch could not be prepared (the database, most likely): every job of it is retried.
      this.log?.warn({ messages: jobs.length, err: (err as { code?: string }).code }, 'mail delivery failed; retrying');
      throw err;
    });
    const { sent, held, failed, retry, deferred } = outcome;
    if (sent + held + failed + deferred.size > 0)
      this.log?.info({ sent, held, failed, retrying: retry.size, waiting: deferred.size }, 'mail delivery');
    for (const job of jobs.filter((j) => retry.has(j.id)))
      this.log?.warn(
        {
          messageId: job.data.messageId,
          attempt: job.retryCount + 1,
          err: (retry.get(job.id) as { code?: string }).code,
        },
        'mail delivery failed; retrying',
      );
    // A message behind an earlier one about the same thing that is still on its way: back in the queue, due soon.
    for (const id of deferred) retry.set(id, new JobDeferred(WAIT_FOR_EARLIER_SECONDS));
    return retry;
  }
}

/** How long a message behind an earlier one still on the wire (a second or so) waits before it is taken again. */
const WAIT_FOR_EARLIER_SECONDS = 1;
