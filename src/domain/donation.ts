import type { DonationRequest } from '../contract/donation.js';
import { isValidPostalCode, normaliseCountry, normaliseState } from './address.js';
import { instantOf } from './instant.js';
import { parseDecimalToCents } from './money.js';
import { normaliseMobile } from './phone.js';

/** A donation as the service keeps it: blanks are absent, state and country are codes, money is cents. */
export interface NormalisedDonation {
  donor: {
    email: string;
    verifiedEmail: string | null;
    firstName: string;
    lastName: string;
    mobile: string | null;
    businessName: string | null;
    /** The donor agreed to be named to the club in its grant's remittance advice. */
    nameShared: boolean;
    street: string | null;
    city: string | null;
    state: string | null;
    postalCode: string;
    country: string | null;
  };
  transaction: { id: string | null; dateRaw: string | null; at: Date | null; amountCents: number | null };
}

const blankToNull = (value: string | undefined): string | null =>
  value === undefined || value.trim() === '' ? null : value.trim();

/**
 * Normalises a schema-valid donation: "" means absent, states become codes, countries alpha-2, mobiles E.164
 * (docs/decisions/0010-donor-validation-follows-the-endpoint-reference.md), amounts cents
 * (docs/decisions/0011-money-in-integer-cents.md), and a transaction date without an offset the instant of that
 * wall-clock time in `timeZone`, the foundation's
 * (docs/decisions/0022-transaction-date-without-offset-is-local-time.md). Returns the cross-field errors the schema
 * cannot express.
 */
export function normaliseDonation(
  request: DonationRequest,
  { timeZone }: { timeZone: string },
): { value: NormalisedDonation } | { errors: string[] } {
  const { donor, transaction } = request;
  const address = donor.billingAddress;
  const stateInput = blankToNull(address.state);
  const countryInput = blankToNull(address.country);
  const mobileInput = blankToNull(donor.mobile);
  const country = countryInput === null ? null : normaliseCountry(countryInput);
  const errors: string[] = [];
  if (!isValidPostalCode(address.postalCode, country)) {
    errors.push('donor.billingAddress.postalCode: must be 4 digits for an Australian address');
  }
  // The validator refuses a local time the zone skips; a caller that skipped the validator is told here.
  const at = transaction.date ? instantOf(transaction.date, timeZone) : null;
  if (transaction.date && at === null)
    errors.push(`transaction.date: is a local time that does not exist in ${timeZone}`);
  if (errors.length > 0) return { errors };
  return {
    value: {
      donor: {
        email: donor.email.trim(),
        verifiedEmail: blankToNull(donor.verifiedEmail),
        firstName: donor.firstName.trim(),
        lastName: donor.lastName.trim(),
        mobile: mobileInput === null ? null : normaliseMobile(mobileInput),
        businessName: blankToNull(donor.businessName),
        nameShared: donor.shareNameWithFundraiser === true,
        street: blankToNull(address.street),
        city: blankToNull(address.city),
        state: stateInput === null ? null : normaliseState(stateInput),
        postalCode: address.postalCode.trim(),
        country,
      },
      transaction: {
        id: blankToNull(transaction.id),
        dateRaw: transaction.date ?? null,
        at,
        amountCents: transaction.amount === undefined ? null : parseDecimalToCents(transaction.amount),
      },
    },
  };
}
