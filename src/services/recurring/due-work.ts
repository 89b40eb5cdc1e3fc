import type { CalendarDate } from '../../domain/calendar-date.js';
import { debitsDue, markQueued } from '../../infrastructure/repositories/debits.js';
import { plansDue } from '../../infrastructure/repositories/recurring-plans.js';
import { debitCollectionJob, enqueueJob } from '../jobs/definitions.js';
import { collectDebit } from './collect-debit.js';
import type { RecurringDeps } from './deps.js';
import { applyDebitOutcome } from './outcomes.js';
import type { PartnerClocks } from './partner-clock.js';
import { createDueDebits } from './schedule.js';

/** Plans (or debits) handled per statement: a season's morning of due debits is worked through in chunks. */
const CHUNK = 500;

export interface DueWorkReport {
  debitsCreated: number;
  triesQueued: number;
  triesSubmitted: number;
  paymentsSettled: number;
}

/** Which partners' work, by which date: those on the real clock, or one partner whose sandbox clock runs ahead. */
type Scope = { partners: { only: string[] } | { except: string[] }; today: CalendarDate };

/**
 * The scheduled look for due work (the recurring-scan job): every plan's debits due by its partner's date are
 * created with their collection jobs, failed debits due for another try get theirs, and the simulator's payments
 * settle by their partners' clocks. Safe to run again at any point: each debit exists once per (plan, date), each
 * try is enqueued once, and the collection of a try reaches one payment.
 */
export async function scheduleDueWork(deps: RecurringDeps, clocks: PartnerClocks): Promise<DueWorkReport> {
  const report: DueWorkReport = { debitsCreated: 0, triesQueued: 0, triesSubmitted: 0, paymentsSettled: 0 };
  const ahead = clocks.aheadOfTime();
  const scopes: Scope[] = [
    { partners: { except: ahead.map((a) => a.partnerId) }, today: clocks.realToday() },
    ...ahead.map(({ partnerId, today }) => ({ partners: { only: [partnerId] }, today })),
  ];
  for (const scope of scopes) {
    report.debitsCreated += await createDebitsDue(deps, scope);
    report.triesQueued += await queueTriesDue(deps, scope);
  }
  report.paymentsSettled += await settleSimulatedPayments(deps, clocks);
  return report;
}

/**
 * The same for one partner, at once and in this process (the sandbox clock's walk): due debits are submitted here
 * rather than by their jobs, so the partner sees what happened in the answer. A job enqueued for one of them
 * finds it submitted already and leaves it alone.
 */
export async function runPartnerDueWork(
  deps: RecurringDeps,
  clocks: PartnerClocks,
  partnerId: string,
): Promise<DueWorkReport> {
  const scope: Scope = { partners: { only: [partnerId] }, today: clocks.todayOf(partnerId) };
  const report: DueWorkReport = { debitsCreated: 0, triesQueued: 0, triesSubmitted: 0, paymentsSettled: 0 };
  report.debitsCreated = await createDebitsDue(deps, scope);
  for (;;) {
    const due = await debitsDue(deps.db, scope.today, scope.partners, { limit: CHUNK, unqueuedOnly: false });
    let submitted = 0;
    for (const debit of due) if ((await collectDebit(deps, debit.id, clocks)) === 'submitted') submitted += 1;
    report.triesSubmitted += submitted;
    if (submitted === 0 || due.length < CHUNK) break;
  }
  report.paymentsSettled = await settleSimulatedPayments(deps, clocks, [partnerId]);
  return report;
}

async function createDebitsDue(deps: RecurringDeps, scope: Scope): Promise<number> {
  let created = 0;
  for (;;) {
    const plans = await plansDue(deps.db, scope.today, scope.partners, CHUNK);
    let made = 0;
    for (const plan of plans)
      made += await deps.db.transaction().execute((trx) => createDueDebits(trx, plan.id, scope.today));
    created += made;
    // A plan still due after its turn has ended its schedule or was canceled meanwhile: the next run looks again.
    if (plans.length < CHUNK || made === 0) return created;
  }
}

async function queueTriesDue(deps: RecurringDeps, scope: Scope): Promise<number> {
  let queued = 0;
  for (;;) {
    const due = await debitsDue(deps.db, scope.today, scope.partners, { limit: CHUNK, unqueuedOnly: true });
    for (const debit of due)
      await deps.db.transaction().execute(async (trx) => {
        await enqueueJob(trx, debitCollectionJob, { debitId: debit.id });
        await markQueued(trx, debit.id, debit.attempts + 1);
      });
    queued += due.length;
    if (due.length < CHUNK) return queued;
  }
}

/** The simulator's payments whose settlement time has come on their partner's clock, applied as webhooks would be. */
async function settleSimulatedPayments(
  deps: RecurringDeps,
  clocks: PartnerClocks,
  partnerIds?: string[],
): Promise<number> {
  const simulator = deps.simulator;
  if (!simulator) return 0;
  let settled = 0;
  for (const partnerId of partnerIds ?? (await simulator.payments.partnersWithOpenPayments())) {
    for (const payment of await simulator.payments.duePayments(partnerId, clocks.nowOf(partnerId))) {
      const occurredAt = Math.floor(payment.settlesAt.getTime() / 1000);
      const failure = payment.failureCode ? { code: payment.failureCode, message: null } : null;
      const common = { debitId: payment.debitId, attempt: payment.attempt, paymentId: payment.paymentId };
      const context = { policy: deps.policy, today: clocks.todayOf(partnerId) };
      const status = payment.outcome === 'failed' ? 'failed' : 'succeeded';
      await applyDebitOutcome(deps.db, { ...common, status, failure, occurredAt }, context);
      if (payment.outcome === 'disputed')
        await applyDebitOutcome(
          deps.db,
          { ...common, status: 'disputed', failure: null, occurredAt: occurredAt + 1 },
          context,
        );
      await simulator.payments.markSettled(payment.paymentId);
      settled += 1;
    }
  }
  return settled;
}
