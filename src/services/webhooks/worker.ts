import type { Logger } from 'pino';
import type { Database } from '../../infrastructure/db/connect.js';
import type { JobQueue, QueuedJob } from '../../infrastructure/queue/job-queue.js';
import { WEBHOOK_DELIVERY_QUEUE } from '../../infrastructure/queue/queues.js';
import { attemptDelivery } from './attempt-delivery.js';
import { pruneEvents } from './event-log.js';
import type { DeliveryJob } from '../jobs/definitions.js';
import type { WebhookSettings } from './settings.js';

export interface WebhookWorkerOptions {
  log?: Pick<Logger, 'info' | 'warn' | 'error'>;
  pollingIntervalSeconds?: number;
  /** How often events past their retention are pruned; 0 turns pruning off (tests). */
  pruneIntervalMs?: number;
  /** Injectable clock (tests of the disabling rule). */
  now?: () => Date;
}

/**
 * Works the webhook delivery queue (one job per attempt) and prunes the event log. Log lines name the delivery,
 * endpoint status and outcome, never a URL's query string or a secret.
 */
export class WebhookDeliveryWorker {
  private pruneTimer: NodeJS.Timeout | null = null;

  constructor(
    private readonly queue: JobQueue,
    private readonly database: Database,
    private readonly settings: WebhookSettings,
    private readonly options: WebhookWorkerOptions = {},
  ) {}

  async start(): Promise<void> {
    if (this.database.kind === 'embedded') await this.queue.retryOrphanedJobs(WEBHOOK_DELIVERY_QUEUE);
    await this.queue.work<DeliveryJob>(
      WEBHOOK_DELIVERY_QUEUE,
      { pollingIntervalSeconds: this.options.pollingIntervalSeconds ?? 1 },
      (job) => this.attempt(job),
    );
    const every = this.options.pruneIntervalMs ?? 3_600_000;
    if (every > 0) {
      this.pruneTimer = setInterval(() => void this.prune(), every);
      this.pruneTimer.unref();
      void this.prune();
    }
  }

  stop(): void {
    if (this.pruneTimer) clearInterval(this.pruneTimer);
    this.pruneTimer = null;
  }

  /** Runs every waiting attempt now, in this process (tests, operators); with `now`, also those not due yet. */
  runPending(options: { now?: boolean } = {}): Promise<number> {
    return this.queue.drain<DeliveryJob>(WEBHOOK_DELIVERY_QUEUE, (job) => this.attempt(job), options);
  }

  private async attempt(job: QueuedJob<DeliveryJob>) {
    const outcome = await attemptDelivery(this.database.db, job.data, this.settings, this.options.now);
    const { deliveryId } = job.data;
    if (!outcome.attempted) this.options.log?.info({ deliveryId, reason: outcome.reason }, 'webhook delivery skipped');
    else if (outcome.delivered) this.options.log?.info({ deliveryId, status: outcome.status }, 'webhook delivered');
    else
      this.options.log?.warn(
        {
          deliveryId,
          status: outcome.status,
          nextAttemptInSeconds: outcome.nextAttemptInSeconds,
          endpointDisabled: outcome.disabled,
        },
        'webhook delivery attempt failed',
      );
  }

  private async prune() {
    try {
      const pruned = await pruneEvents(this.database.db, this.settings.retentionDays);
      if (pruned > 0) this.options.log?.info({ pruned }, 'events past their retention pruned');
    } catch (err) {
      this.options.log?.warn({ err: (err as Error).message }, 'could not prune events');
    }
  }
}
