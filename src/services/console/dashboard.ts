import { dateIn } from '../../domain/calendar-date.js';
import { nextScheduledDate, parseSchedule } from '../../domain/grants/schedule.js';
import {
  donationsPerDay,
  grantFigures,
  type GrantFigures,
  rejectionsSince,
  type DailyDonations,
  type RejectionCount,
} from '../../infrastructure/repositories/console-dashboard.js';
import { countUnsentByStatus } from '../../infrastructure/repositories/mail-outbox.js';
import type { BatchEntryRow } from '../../infrastructure/repositories/batch-entries.js';
import { reversalFigures, type ReversalFigures } from '../../infrastructure/repositories/reversal-admin.js';
import type { OperatorContext } from '../operators/context.js';
import { listPartners, type PartnerSummary } from '../operators/partners.js';
import { listRemittanceBatches, listRemittanceEntries, type BatchSummary } from '../reconciliation/operations.js';

/** Everything the console's first page shows, read through the same services as the CLI. */
export interface Dashboard {
  days: string[];
  donations: DailyDonations[];
  partners: PartnerSummary[];
  batchesInProgress: BatchSummary[];
  recentExceptions: BatchEntryRow[];
  rejections: RejectionCount[];
  /** Reversals made in the days shown (count, AUD), and everything owed back now (docs/reversals.md). */
  reversals: ReversalFigures;
  /** Messages of the mail outbox that failed for good (docs/receipts.md, "Delivery"): a donor never got them. */
  failedMail: number;
  /** Owed to clubs, held by the latest round, and the day the next round is drafted. */
  grants: GrantFigures & { nextRound: string };
}

/** GRANT_SCHEDULE and the foundation's zone: when the next round is drafted. */
export interface GrantSchedule {
  schedule: string;
  timeZone: string;
}

const DASHBOARD_DAYS = 14;
const DAY_MS = 86_400_000;

export async function loadDashboard(ctx: OperatorContext, rounds: GrantSchedule): Promise<Dashboard> {
  const today = startOfUtcDay(ctx.now());
  const from = new Date(today.getTime() - (DASHBOARD_DAYS - 1) * DAY_MS);
  const days = Array.from({ length: DASHBOARD_DAYS }, (_, i) => isoDay(new Date(from.getTime() + i * DAY_MS)));
  const exceptionsFrom = new Date(today.getTime() - 30 * DAY_MS);
  const [donations, partners, accepted, processing, recentExceptions, rejections, reversals, mail, grants] =
    await Promise.all([
      donationsPerDay(ctx.db, from),
      listPartners(ctx),
      listRemittanceBatches(ctx, { status: 'accepted', range: {}, limit: 20 }),
      listRemittanceBatches(ctx, { status: 'processing', range: {}, limit: 20 }),
      listRemittanceEntries(ctx, { exceptionsOnly: true, range: { from: exceptionsFrom }, limit: 10 }),
      rejectionsSince(ctx.db, days[days.length - 7]!),
      reversalFigures(ctx.db, from),
      countUnsentByStatus(ctx.db),
      grantFigures(ctx.db),
    ]);
  const nextRound = nextScheduledDate(dateIn(ctx.now(), rounds.timeZone), parseSchedule(rounds.schedule));
  return {
    days,
    donations,
    partners,
    batchesInProgress: [...processing, ...accepted],
    recentExceptions,
    rejections,
    reversals,
    failedMail: mail.failed ?? 0,
    grants: { ...grants, nextRound },
  };
}

const startOfUtcDay = (at: Date) => new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate()));
const isoDay = (at: Date) => at.toISOString().slice(0, 10);
