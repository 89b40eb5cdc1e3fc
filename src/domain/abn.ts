const WEIGHTS = [10, 1, 3, 5, 7, 9, 11, 13, 15, 17, 19];

/** The 11 digits of an ABN written with or without spaces ("51 824 753 556"), or null when it is not 11 digits. */
export function normaliseAbn(value: string): string | null {
  const digits = value.replace(/\s+/g, '');
  return /^\d{11}$/.test(digits) ? digits : null;
}

/**
 * The ATO's check: subtract 1 from the first digit, weight the digits, and the sum must divide by 89. It catches
 * a mistyped or transposed digit in a CRM export before the ABN reaches a partner's receipts.
 */
export function isValidAbn(digits: string): boolean {
  if (!/^\d{11}$/.test(digits)) return false;
  const sum = [...digits].reduce((total, char, i) => total + (Number(char) - (i === 0 ? 1 : 0)) * WEIGHTS[i]!, 0);
  return sum % 89 === 0;
}
