import { Type, type Static } from '@sinclair/typebox';
import { StringEnum } from './common.js';
import { ReversalRecord } from './reversals.js';

const Optional = (description?: string) => Type.Optional(Type.String(description ? { description } : {}));

/** GET /donations/{donationReferenceId}: a donation as recorded, its reversals and its settlement. */
export const DonationRecord = Type.Object({
  donationReferenceId: Type.String(),
  receivedAt: Type.String({ format: 'date-time' }),
  collectedBy: StringEnum(['partner', 'foundation'], {
    description: 'partner: recorded by POST /donations; foundation: collected by a debit of a mandate.',
  }),
  source: Type.Object({
    channel: Type.String(),
    fundraiserId: Type.String(),
    fundraiserAccountName: Optional(),
    productEnrollmentId: Optional(),
  }),
  donor: Type.Object({
    email: Type.String(),
    firstName: Type.String(),
    lastName: Type.String(),
    mobile: Optional('As stored: E.164.'),
    businessName: Optional(),
    verifiedEmail: Optional(),
    shareNameWithFundraiser: Type.Boolean({
      description: 'Extension: whether the donor agreed to be named to the club in its grant’s remittance advice.',
    }),
    billingAddress: Type.Object({
      street: Optional(),
      city: Optional(),
      state: Optional('As stored: the state code.'),
      postalCode: Optional(),
      country: Optional('As stored: ISO 3166 alpha-2.'),
    }),
  }),
  transaction: Type.Object({
    id: Optional(),
    date: Optional('Exactly as you sent it.'),
  }),
  sourceMetadata: Type.Optional(Type.Object({}, { additionalProperties: true })),
  amount: Type.Union([Type.String(), Type.Null()], { description: 'As recorded (null when sent without one).' }),
  reversedAmount: Type.String({ description: 'What reversals took back.' }),
  netAmount: Type.Union([Type.String(), Type.Null()], { description: 'amount less reversedAmount.' }),
  reversals: Type.Array(ReversalRecord),
  settlement: Type.Union(
    [
      Type.Object({
        by: Type.Literal('remittance'),
        batchId: Type.String(),
        bankReferenceId: Type.String(),
        entryIndex: Type.Integer({ description: 'The settling entry’s index in its batch, from 0.' }),
        settledAt: Type.String({ format: 'date-time' }),
      }),
      Type.Object({
        by: Type.Literal('debit'),
        debitId: Type.String(),
        settledAt: Type.String({ format: 'date-time' }),
      }),
      Type.Null(),
    ],
    { description: 'How it was settled: by the entry of a remittance batch, or by the debit that collected it.' },
  ),
  owedBack: Type.String({
    description: 'Reversed after settlement and not yet repaid by the foundation: money it owes back.',
  }),
});
export type DonationRecord = Static<typeof DonationRecord>;
