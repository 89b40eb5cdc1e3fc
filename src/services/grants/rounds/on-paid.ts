import type { Kysely } from 'kysely';
import { addDays, dateIn } from '../../../domain/calendar-date.js';
import type { DB } from '../../../infrastructure/db/schema.js';
import { insertAcquittals } from '../../../infrastructure/repositories/grants.js';
import type { RoundRow } from '../../../infrastructure/repositories/grant-rounds.js';
import { scheduleAdvices } from '../advice/issue.js';

export interface AfterPaidDeps {
  /** ACQUITTAL_DUE_DAYS. */
  acquittalDueDays: number;
  timeZone: string;
  at: Date;
}

/**
 * What follows a round marked paid, in the same transaction: each paid grant asks its club for an expenditure
 * declaration due ACQUITTAL_DUE_DAYS after the payment date (in the foundation's zone), and the round's remittance
 * advices are enqueued (services/grants/advice: the job exists if and only if the payment commits).
 */
export async function afterRoundPaid(trx: Kysely<DB>, round: RoundRow, deps: AfterPaidDeps): Promise<void> {
  const dueOn = addDays(dateIn(deps.at, deps.timeZone), deps.acquittalDueDays);
  await insertAcquittals(trx, round.id, dueOn);
  await scheduleAdvices(trx, round.id);
}
