import type { Config } from '../../../config/index.js';
import { feeBasisPoints } from '../../../domain/grants/fee.js';
import { parseSchedule, type ScheduleDay } from '../../../domain/grants/schedule.js';
import { parseDecimalToCents } from '../../../domain/money.js';
import type { GrantBasis } from '../../../infrastructure/db/schema-grants.js';

/** What a round is drafted under, from the settings (docs/deploy.md): read once per draft and kept on the round. */
export interface RoundTerms {
  /** APP_ENV: only this deployment's donations are granted. */
  environment: string;
  basis: GrantBasis;
  feeBasisPoints: number;
  minimumCents: bigint;
  holdDays: number;
  timeZone: string;
  schedule: ScheduleDay[];
}

export function roundTerms(config: Config): RoundTerms {
  const points = feeBasisPoints(config.GRANT_FEE_PERCENT);
  const minimum = parseDecimalToCents(config.GRANT_MINIMUM);
  // The settings' patterns refuse both already; a null here would be a schema changed without this.
  if (points === null || minimum === null) throw new Error('GRANT_FEE_PERCENT or GRANT_MINIMUM is not a valid amount');
  return {
    environment: config.APP_ENV,
    basis: config.GRANT_BASIS,
    feeBasisPoints: points,
    minimumCents: BigInt(minimum),
    holdDays: config.GRANT_BANK_CHANGE_HOLD_DAYS,
    timeZone: config.FOUNDATION_TIME_ZONE,
    schedule: parseSchedule(config.GRANT_SCHEDULE),
  };
}
