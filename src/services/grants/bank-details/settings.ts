import type { Config } from '../../../config/index.js';

/** What the bank-details services need of the settings: the hold, and the time zone messages are written in. */
export interface BankDetailsSettings {
  holdDays: number;
  timeZone: string;
}

export const bankDetailsSettings = (
  config: Pick<Config, 'GRANT_BANK_CHANGE_HOLD_DAYS' | 'FOUNDATION_TIME_ZONE'>,
): BankDetailsSettings => ({ holdDays: config.GRANT_BANK_CHANGE_HOLD_DAYS, timeZone: config.FOUNDATION_TIME_ZONE });

/** An instant as people at the foundation read it: "4 Dec 2026, 3:30 pm AEDT". */
export function localTime(at: Date, timeZone: string): string {
  return new Intl.DateTimeFormat('en-AU', {
    timeZone,
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    timeZoneName: 'short',
  }).format(at);
}
