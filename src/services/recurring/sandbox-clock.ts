import { ApiError } from '../../api-errors.js';
import { startOfDate } from '../../domain/calendar-date.js';
import { addDuration, parseDuration } from '../../domain/duration.js';
import { nextDebitDate } from '../../infrastructure/repositories/debits.js';
import { nextPlanDate } from '../../infrastructure/repositories/recurring-plans.js';
import { advanceClock } from '../../infrastructure/repositories/sandbox-clocks.js';
import type { RecurringDeps } from './deps.js';
import { runPartnerDueWork, type DueWorkReport } from './due-work.js';
import { PartnerClocks } from './partner-clock.js';

/** The partner's sandbox time. */
export async function readSandboxClock(deps: RecurringDeps, partnerId: string) {
  const clocks = await PartnerClocks.read(deps.db, deps.now(), deps.timeZone);
  return clockRecord(clocks, partnerId);
}

/**
 * POST /sandbox/clock/advance: moves the partner's sandbox clock forward by an ISO 8601 duration and makes
 * everything due in that span happen, in order: the clock walks from one due date or settlement to the next,
 * creating and submitting debits and settling the simulator's payments at each (a BECS debit settles two days
 * after it is submitted), so a year of monthly debits takes one request. Other partners' clocks are not touched.
 */
export async function advanceSandboxClock(deps: RecurringDeps, partnerId: string, durationText: string) {
  const duration = parseDuration(durationText);
  if (!duration) throw new ApiError('VALIDATION', 'duration: must be an ISO 8601 duration such as P1M or PT12H');
  let clocks = await PartnerClocks.read(deps.db, deps.now(), deps.timeZone);
  const realNow = deps.now().getTime();
  const from = clocks.nowOf(partnerId);
  const target = addDuration(from, duration, deps.timeZone);
  if (target.getTime() - from.getTime() > MAX_SPAN_MS)
    throw new ApiError('VALIDATION', 'duration: the sandbox clock moves at most 5 years at a time');
  const total: DueWorkReport = { debitsCreated: 0, triesQueued: 0, triesSubmitted: 0, paymentsSettled: 0 };
  let step = from;
  for (let round = 0; round < MAX_STEPS; round += 1) {
    clocks = clocks.withOffset(partnerId, Math.floor((step.getTime() - realNow) / 1000));
    add(total, await runPartnerDueWork(deps, clocks, partnerId));
    const next = await nextEvent(deps, clocks, partnerId);
    if (next === null || next > target) break;
    step = next.getTime() > step.getTime() ? next : new Date(step.getTime() + 1000);
  }
  clocks = clocks.withOffset(partnerId, Math.floor((target.getTime() - realNow) / 1000));
  add(total, await runPartnerDueWork(deps, clocks, partnerId));
  await advanceClock(deps.db, partnerId, clocks.offsetOf(partnerId) - (await currentOffset(deps, partnerId)));
  return { ...clockRecord(clocks, partnerId), ...total };
}

/** A walk of 5 years of weekly debits, each submitted, settled and retried, stays well inside these bounds. */
const MAX_SPAN_MS = 5 * 366 * 86_400_000;
const MAX_STEPS = 5_000;

const add = (total: DueWorkReport, report: DueWorkReport) => {
  total.debitsCreated += report.debitsCreated;
  total.triesSubmitted += report.triesSubmitted;
  total.paymentsSettled += report.paymentsSettled;
};

/** The next moment something of the partner's falls due: a plan's debit, a debit's try, a payment's settlement. */
async function nextEvent(deps: RecurringDeps, clocks: PartnerClocks, partnerId: string): Promise<Date | null> {
  const today = clocks.todayOf(partnerId);
  const dates = [await nextPlanDate(deps.db, partnerId, today), await nextDebitDate(deps.db, partnerId, today)]
    .filter((date): date is string => date !== null)
    .map((date) => startOfDate(date, deps.timeZone));
  const settlement = deps.simulator ? await deps.simulator.payments.nextSettlement(partnerId) : null;
  const candidates = [...dates, ...(settlement ? [settlement] : [])];
  return candidates.length === 0 ? null : new Date(Math.min(...candidates.map((d) => d.getTime())));
}

async function currentOffset(deps: RecurringDeps, partnerId: string): Promise<number> {
  return (await PartnerClocks.read(deps.db, deps.now(), deps.timeZone)).offsetOf(partnerId);
}

function clockRecord(clocks: PartnerClocks, partnerId: string) {
  return {
    now: clocks.nowOf(partnerId).toISOString(),
    today: clocks.todayOf(partnerId),
    aheadBySeconds: clocks.offsetOf(partnerId),
  };
}
