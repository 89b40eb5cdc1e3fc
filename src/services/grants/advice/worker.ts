import type { Logger } from 'pino';
import type { Database } from '../../../infrastructure/db/connect.js';
import type { JobQueue, QueuedJob } from '../../../infrastructure/queue/job-queue.js';
import { GRANT_ADVICES_QUEUE } from '../../../infrastructure/queue/queues.js';
import type { GrantAdvicesJob } from '../../jobs/definitions.js';
import { issueAdvices, type AdvicePolicy } from './issue.js';

/**
 * Works the grant-advices queue: one job per paid round, which advises the round's grants (issue.ts). The job may
 * run twice (a crash after the commit, before its completion): the second run finds every grant advised and writes
 * nothing. Log lines carry counts, never a club's address.
 */
export class GrantAdvicesWorker {
  constructor(
    private readonly queue: JobQueue,
    private readonly database: Database,
    private readonly policy: AdvicePolicy,
    private readonly now: () => Date,
    private readonly log?: Pick<Logger, 'info'>,
  ) {}

  async start(): Promise<void> {
    if (this.database.kind === 'embedded') await this.queue.retryOrphanedJobs(GRANT_ADVICES_QUEUE);
    await this.queue.work<GrantAdvicesJob>(GRANT_ADVICES_QUEUE, { pollingIntervalSeconds: 5 }, (job) => this.run(job));
  }

  /** Runs every waiting job now, in this process (tests, operators); resolves with how many ran. */
  runPending(options: { now?: boolean } = {}): Promise<number> {
    return this.queue.drain<GrantAdvicesJob>(GRANT_ADVICES_QUEUE, (job) => this.run(job), options);
  }

  private async run(job: QueuedJob<GrantAdvicesJob>): Promise<void> {
    const report = await issueAdvices(this.database.db, { roundId: job.data.roundId }, this.policy, this.now);
    if (report.advised > 0) this.log?.info({ roundId: job.data.roundId, ...report }, 'grant advices issued');
  }
}
