import type { CalendarDate } from '../../domain/calendar-date.js';
import { debitsDue, markQueued } from '../../infrastructure/repositories/debits.js';
import { plansDue } from '../../infrastructure/repositories/recurring-plans.js';
import { debitCollectionJob, enqueueJob } from '../jobs/definitions.js';
import { collectDebit } from './collect-debit.js';
import type { RecurringDeps } from './deps.js';
import { applyDebitOutcome } from './outcomes.js';
import type { PartnerClocks } from './partner-clock.js';
import { createDueDebitsOfPlans } from './schedule.js';

/** Plans (or debits) handled per statement: a season's morning of due debits is worked through in chunks. */
const CHUNK = 500;
/**
 * Debits the sandbox clock's walk submits at once: each submission is a few statements and two commits, which on
 * PostgreSQL overlap (the pool has room; the debit-collection jobs do the same with DEBIT_COLLECTION_CONCURRENCY).
 */
const COLLECTING_AT_ONCE = 8;

/** `run` over every item, `limit` at a time; the results in the items' order. */
async function eachAtOnce<T, R>(items: T[], limit: number, run: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await run(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

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
 * rather than by their jobs, so the partner sees what happened in the answer. The debits it creates get no job (the
 * next scan enqueues the try of any it did not submit); a job enqueued earlier for one finds it submitted already
 * and leaves it alone.
 */
export async function runPartnerDueWork(
  deps: RecurringDeps,
  clocks: PartnerClocks,
  partnerId: string,
): Promise<DueWorkReport> {
  const scope: Scope = { partners: { only: [partnerId] }, today: clocks.todayOf(partnerId) };
  const report: DueWorkReport = { debitsCreated: 0, triesQueued: 0, triesSubmitted: 0, paymentsSettled: 0 };
  report.debitsCreated = await createDebitsDue(deps, scope, { enqueue: false });
  for (;;) {
    const due = await debitsDue(deps.db, scope.today, scope.partners, { limit: CHUNK, unqueuedOnly: false });
    const results = await eachAtOnce(due, COLLECTING_AT_ONCE, (debit) => collectDebit(deps, debit.id, clocks));
    const submitted = results.filter((result) => result === 'submitted').length;
    report.triesSubmitted += submitted;
    if (submitted === 0 || due.length < CHUNK) break;
  }
  report.paymentsSettled = await settleSimulatedPayments(deps, clocks, [partnerId]);
  return report;
}

/**
 * A chunk of plans is one transaction of three statements (createDueDebitsOfPlans): a transaction of five statements
 * per plan was most of the time of a morning's debits. The plans are locked in the order plansDue gives (due date,
 * then id), the same for every transaction doing this, so two of them (the scan and a sandbox clock's walk) wait
 * for each other but never deadlock.
 */
async function createDebitsDue(deps: RecurringDeps, scope: Scope, options?: { enqueue: boolean }): Promise<number> {
  let created = 0;
  for (;;) {
    const plans = await plansDue(deps.db, scope.today, scope.partners, CHUNK);
    const ids = plans.map((plan) => plan.id);
    const made = await deps.db.transaction().execute((trx) => createDueDebitsOfPlans(trx, ids, scope.today, options));
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

/**
 * The simulator's payments whose settlement time has come on their partner's clock, applied as webhooks would be,
 * COLLECTING_AT_ONCE at a time: each is a debit of its own (a debit has one open payment at a time), so they do not
 * wait for one another, and a morning of 10,000 settlements is not a chain of 10,000 transactions.
 */
async function settleSimulatedPayments(
  deps: RecurringDeps,
  clocks: PartnerClocks,
  partnerIds?: string[],
): Promise<number> {
  const simulator = deps.simulator;
  if (!simulator) return 0;
  let settled = 0;
  for (const partnerId of partnerIds ?? (await simulator.payments.partnersWithOpenPayments())) {
    const due = await simulator.payments.duePayments(partnerId, clocks.nowOf(partnerId));
    const context = { policy: deps.policy, today: clocks.todayOf(partnerId) };
    await eachAtOnce(due, COLLECTING_AT_ONCE, async (payment) => {
      const occurredAt = Math.floor(payment.settlesAt.getTime() / 1000);
      const failure = payment.failureCode ? { code: payment.failureCode, message: null } : null;
      const common = { debitId: payment.debitId, attempt: payment.attempt, paymentId: payment.paymentId };
      const status = payment.outcome === 'failed' ? 'failed' : 'succeeded';
      await applyDebitOutcome(deps.db, { ...common, status, failure, occurredAt }, context);
      if (payment.outcome === 'disputed')
        await applyDebitOutcome(
          deps.db,
          { ...common, status: 'disputed', failure: null, occurredAt: occurredAt + 1 },
          context,
        );
      await simulator.payments.markSettled(payment.paymentId);
    });
    settled += due.length;
  }
  return settled;
}
