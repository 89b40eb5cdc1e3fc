import type { Logger } from 'pino';
import { scheduleAt } from '../../../domain/grants/schedule.js';
import type { Database } from '../../../infrastructure/db/connect.js';
import { findRoundByScheduledDay } from '../../../infrastructure/repositories/grant-rounds.js';
import type { JobQueue } from '../../../infrastructure/queue/job-queue.js';
import { GRANT_ROUNDS_QUEUE } from '../../../infrastructure/queue/queues.js';
import { ConflictError } from '../../operators/operator-errors.js';
import { draftRound } from './draft.js';
import type { RoundTerms } from './terms.js';

/** A draft left open by an operator blocks the scheduled one: looked at again this often until it is decided. */
const BLOCKED_RETRY_SECONDS = 3600;

export type ScheduledDraft =
  | { day: string; outcome: 'drafted' | 'exists'; round: number }
  | { day: string; outcome: 'blocked'; reason: string }
  | { day: string; outcome: 'nothing_owed' };

/**
 * The grant rounds' schedule (docs/grants.md, "The rhythm") as a job of its own queue, one run at a time across
 * every instance: each run drafts the round of the scheduled day due (today's, or the last one before) unless that
 * day has one or nothing is owed to any club (no empty round is left open), then schedules the next run at the start
 * of the next scheduled day. The scheduled day is unique among rounds, so two instances running at once draft it
 * once (the second finds the first's round).
 */
export class GrantRoundsWorker {
  constructor(
    private readonly queue: JobQueue,
    private readonly database: Database,
    private readonly terms: RoundTerms,
    private readonly now: () => Date,
    private readonly log?: Pick<Logger, 'info' | 'warn'>,
  ) {}

  async start(): Promise<void> {
    if (this.database.kind === 'embedded') await this.queue.retryOrphanedJobs(GRANT_ROUNDS_QUEUE);
    await this.queue.work(GRANT_ROUNDS_QUEUE, { pollingIntervalSeconds: 60 }, () => this.runAndReschedule());
    // The first instance to start looks now (a day missed while no instance ran is drafted); then the waiting run.
    await this.queue.schedule(GRANT_ROUNDS_QUEUE, {});
    this.queue.wake(GRANT_ROUNDS_QUEUE);
  }

  /** Drafts the due scheduled day's round now unless it has one (what a run does). */
  async run(): Promise<ScheduledDraft> {
    const at = this.now();
    const { due } = scheduleAt(at, this.terms.schedule, this.terms.timeZone);
    const existing = await findRoundByScheduledDay(this.database.db, due);
    if (existing) return { day: due, outcome: 'exists', round: existing.number };
    try {
      const made = await draftRound(this.database.db, this.terms, {
        scheduledOn: due,
        cutoffDay: due,
        by: 'schedule',
        at,
        skipIfEmpty: true,
      });
      if (!made) return { day: due, outcome: 'nothing_owed' };
      return { day: due, outcome: made.drafted ? 'drafted' : 'exists', round: made.round.number };
    } catch (err) {
      if (err instanceof ConflictError) return { day: due, outcome: 'blocked', reason: err.message };
      throw err;
    }
  }

  private async runAndReschedule(): Promise<void> {
    let blocked = false;
    try {
      const result = await this.run();
      blocked = result.outcome === 'blocked';
      if (result.outcome === 'blocked')
        this.log?.warn({ day: result.day }, `grant round not drafted: ${result.reason}`);
      else if (result.outcome === 'drafted')
        this.log?.info({ day: result.day, round: result.round }, 'grant round drafted');
    } finally {
      // Scheduled even when the run failed: the retry covers this run, the schedule must go on.
      const { nextAt } = scheduleAt(this.now(), this.terms.schedule, this.terms.timeZone);
      const untilNext = Math.max(0, Math.ceil((nextAt.getTime() - this.now().getTime()) / 1000));
      await this.queue.schedule(
        GRANT_ROUNDS_QUEUE,
        {},
        blocked ? Math.min(BLOCKED_RETRY_SECONDS, untilNext) : untilNext,
      );
    }
  }
}
