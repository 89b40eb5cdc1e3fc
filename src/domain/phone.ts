import { parsePhoneNumberFromString } from 'libphonenumber-js/max';

/**
 * A mobile in E.164 or in Australian local format ("0412 345 678"), as E.164 ("+61412345678"), or null when it
 * is not a valid phone number.
 */
export function normaliseMobile(value: string): string | null {
  const parsed = parsePhoneNumberFromString(value.trim(), 'AU');
  if (!parsed || !parsed.isValid()) return null;
  return parsed.number;
}
