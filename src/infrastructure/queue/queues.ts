/** Every durable job queue of the service, and how its jobs are retried. */

export interface QueuePolicy {
  /** Retries after the first attempt; then the job fails for good and goes to `deadLetter`. */
  retryLimit: number;
  /** Seconds before the first retry; with backoff, each retry waits about twice as long (with jitter). */
  retryDelaySeconds: number;
  retryBackoff: boolean;
  /**
   * An active job older than this is taken for lost (its worker crashed) and retried by queue maintenance. It must
   * comfortably exceed the longest run; a run that outlives it is retried while still running, which the job
   * handler must tolerate (reconciliation does: see services/reconciliation).
   */
  expireInSeconds: number;
  deadLetter?: QueueName;
}

export const RECONCILIATION_QUEUE = 'remittance-reconciliation';
export const RECONCILIATION_DEAD_LETTER_QUEUE = 'remittance-reconciliation-dead-letter';
export type QueueName = typeof RECONCILIATION_QUEUE | typeof RECONCILIATION_DEAD_LETTER_QUEUE;

/** In creation order: a dead-letter queue exists before the queue that names it. */
export const QUEUE_POLICIES: Record<QueueName, QueuePolicy> = {
  [RECONCILIATION_DEAD_LETTER_QUEUE]: { retryLimit: 10, retryDelaySeconds: 30, retryBackoff: true, expireInSeconds: 60 },
  // 6 attempts over roughly 5 to 10 minutes (5 s, 10 s, 20 s, 40 s, 80 s before each retry, up to twice that).
  [RECONCILIATION_QUEUE]: { retryLimit: 5, retryDelaySeconds: 5, retryBackoff: true, expireInSeconds: 120, deadLetter: RECONCILIATION_DEAD_LETTER_QUEUE },
};
