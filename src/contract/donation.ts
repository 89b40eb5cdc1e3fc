import { Type, type Static } from '@sinclair/typebox';
import { CHECKS_KEYWORD } from './checks-keyword.js';
import { RequiredText, SourceWithFundraiser, Text } from './common.js';
import { LOCAL_TIME_KEYWORD } from './local-time-keyword.js';

/**
 * DonationRequest (section 2.8) with the donor rules of
 * docs/decisions/0010-donor-validation-follows-the-endpoint-reference.md: only postalCode of the address is
 * required, mobile is optional, and "" means absent for optional strings.
 */
const BillingAddress = Type.Object(
  {
    street: Type.Optional(Text(200)),
    city: Type.Optional(Text(100)),
    state: Type.Optional(
      Text(50, {
        format: 'au-state',
        description: 'ACT, NSW, NT, QLD, SA, TAS, VIC, WA, or the full name (any case).',
      }),
    ),
    postalCode: RequiredText(20, { description: 'Four digits for an Australian address.' }),
    country: Type.Optional(
      Text(60, { format: 'country', description: 'ISO 3166 alpha-2 code or the country name; stored as alpha-2.' }),
    ),
  },
  // Checked by the validator in the same pass as the schema, so a bad postcode is named beside every other field.
  { [CHECKS_KEYWORD]: ['postcode-for-country'] },
);

const Donor = Type.Object({
  email: Type.String({ format: 'email', maxLength: 254 }),
  firstName: RequiredText(100),
  lastName: RequiredText(100),
  mobile: Type.Optional(
    Text(30, { format: 'phone-au-or-e164', description: 'E.164 or Australian local format; stored as E.164.' }),
  ),
  businessName: Type.Optional(Text(200)),
  billingAddress: BillingAddress,
  verifiedEmail: Type.Optional(Type.Union([Type.Literal(''), Type.String({ format: 'email', maxLength: 254 })])),
  // Not in the contract: an extension (docs/decisions/0080-donors-named-to-clubs-only-by-consent.md).
  shareNameWithFundraiser: Type.Optional(
    Type.Boolean({
      description:
        'Extension. true when the donor agreed that the fundraiser (the club) may see their name on the remittance ' +
        'advice of the grant that pays this donation; absent or false, the club sees "Anonymous donor".',
    }),
  ),
});

const Transaction = Type.Object({
  id: Type.Optional(
    Text(100, { description: 'Partner transaction id: a retry with the same id never creates a second donation.' }),
  ),
  // Partners' order systems often know only their local time: it is taken as the foundation's (FOUNDATION_TIME_ZONE).
  date: Type.Optional(
    Type.String({
      format: 'date-time-or-local',
      maxLength: 40,
      [LOCAL_TIME_KEYWORD]: true,
      description:
        'ISO 8601 date-time of the transaction, kept as sent. With Z or an offset it is that instant; without one ' +
        "it is the foundation's local time (the service's FOUNDATION_TIME_ZONE setting, Australia/Sydney by " +
        'default, daylight saving included): a time in the hour skipped when clocks go forward is refused, and in ' +
        'the hour repeated when they go back the first (earlier) instant is meant.',
      examples: ['2026-11-21T10:00:00+11:00', '2026-11-21T10:00:00'],
    }),
  ),
  amount: Type.Optional(
    Type.String({
      format: 'amount-decimal-string',
      maxLength: 14,
      description: 'AUD, decimal string, > 0, at most 2 decimals.',
      examples: ['20.00'],
    }),
  ),
});

export const DonationRequest = Type.Object({
  source: SourceWithFundraiser,
  donor: Donor,
  transaction: Transaction,
  sourceMetadata: Type.Optional(
    Type.Object({}, { additionalProperties: true, description: 'Free-form partner context, stored verbatim.' }),
  ),
});
export type DonationRequest = Static<typeof DonationRequest>;
