import { normaliseCountry, normaliseState } from '../../domain/address.js';
import { isCalendarDate } from '../../domain/calendar-date.js';
import { isDateTime, isRealInstant } from '../../domain/instant.js';
import { isPositiveAmountNumber, isPositiveAmountString } from '../../domain/money.js';
import { normaliseMobile } from '../../domain/phone.js';
import { isUuid } from '../../domain/uuid.js';

/**
 * Formats the contract needs beyond JSON Schema's own, registered on the validator so that one validation pass
 * reports every failing field. An empty string passes where the contract says "" means absent.
 */
export const customFormats = {
  'au-state': (value: string) => value === '' || normaliseState(value) !== null,
  country: (value: string) => value === '' || normaliseCountry(value) !== null,
  'phone-au-or-e164': (value: string) => value === '' || normaliseMobile(value) !== null,
  'amount-decimal-string': (value: string) => isPositiveAmountString(value),
  'amount-aud': { type: 'number' as const, validate: (value: number) => isPositiveAmountNumber(value) },
  'date-time': (value: string) => isRealInstant(value),
  // Only where a partner's local time is welcome (transaction.date); whether the time exists in the foundation's
  // zone is the `x-local-time` keyword's to judge, as the zone is a setting.
  'date-time-or-local': (value: string) => isDateTime(value),
  uuid: isUuid,
  // A day a debit is due on, in the foundation's time zone.
  date: (value: string) => isCalendarDate(value),
};

/** Human wording of each format for validation causes. */
export const formatDescriptions: Record<string, string> = {
  'au-state': 'must be an Australian state or territory code (ACT, NSW, NT, QLD, SA, TAS, VIC, WA) or its full name',
  country: 'must be an ISO 3166 alpha-2 code or a country name',
  'phone-au-or-e164': 'must be a phone number in E.164 (+61412345678) or Australian local format (0412 345 678)',
  'amount-decimal-string': 'must be a positive decimal string with at most 2 decimals, e.g. "20" or "20.50"',
  'amount-aud': 'must be a positive number with at most 2 decimals',
  email: 'must be a valid email address',
  'date-time': 'must be an ISO 8601 date-time naming a real instant (with Z or an offset), e.g. 2026-11-21T10:00:00Z',
  'date-time-or-local':
    'must be an ISO 8601 date-time naming a real instant, with Z or an offset (2026-11-21T10:00:00+11:00) or ' +
    "without one as the foundation's local time (2026-11-21T10:00:00)",
  uuid: 'must be a UUID',
  date: 'must be a calendar date YYYY-MM-DD from 2000 to 2999, e.g. 2026-12-01',
};
