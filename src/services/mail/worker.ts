import type { Logger } from 'pino';
import type { MailPolicy } from '../../config/mail.js';
import type { Database } from '../../infrastructure/db/connect.js';
import type { JobQueue, QueuedJob } from '../../infrastructure/queue/job-queue.js';
import { MAIL_DELIVERY_QUEUE, MAIL_HEARTBEAT_SECONDS } from '../../infrastructure/queue/queues.js';
import { smtpTransport, type MailTransport } from '../../infrastructure/mail/smtp.js';
import { releaseHeld } from '../../infrastructure/repositories/mail-outbox.js';
import type { MailDeliveryJob } from '../jobs/definitions.js';
import { deliverMessage, destinationOf, type MailDeps } from './deliver.js';
import type { MailContent } from './outbox.js';

/**
 * Works the mail-delivery queue (one job per message). At start, when this instance can send (SMTP_URL, and in
 * production or with a QA inbox), messages held while it could not are queued again. Log lines name the message
 * and its kind, never an address or what it says.
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
    await this.queue.work<MailDeliveryJob>(
      MAIL_DELIVERY_QUEUE,
      {
        pollingIntervalSeconds: 2,
        concurrency: this.deps.policy.concurrency,
        heartbeatSeconds: MAIL_HEARTBEAT_SECONDS,
      },
      (job) => this.deliver(job),
    );
  }

  stop(): void {
    this.deps.transport?.close();
  }

  /** Runs every waiting message now, in this process (tests, operators); with `now`, retries not due yet too. */
  runPending(options: { now?: boolean } = {}): Promise<number> {
    return this.queue.drain<MailDeliveryJob>(MAIL_DELIVERY_QUEUE, (job) => this.deliver(job), options);
  }

  private async deliver(job: QueuedJob<MailDeliveryJob>) {
    const { messageId } = job.data;
    try {
      const outcome = await deliverMessage(this.deps, messageId, job);
      if (outcome !== 'skipped') this.log?.info({ messageId, outcome }, 'mail delivery');
    } catch (err) {
      this.log?.warn(
        { messageId, attempt: job.retryCount + 1, err: (err as { code?: string }).code },
        'mail delivery failed; retrying',
      );
      throw err;
    }
  }
}
