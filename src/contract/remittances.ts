import { Type } from '@sinclair/typebox';
import { RequiredText, SourceWithFundraiser } from './common.js';

const MAX_DONATIONS_PER_ENTRY = 1000;

/** One entry of a batch: the streamed body's reader checks each entry against it alone. */
export const RemittanceEntry = Type.Object({
  bankReferenceId: RequiredText(100),
  amount: Type.Number({ format: 'amount-aud', description: 'Settled amount in AUD: > 0, at most 2 decimals.' }),
  donationIds: Type.Array(RequiredText(64), {
    minItems: 1,
    maxItems: MAX_DONATIONS_PER_ENTRY,
    description: 'donationReferenceIds covered by this entry.',
  }),
});

/** RemittancesRequest (section 4.8); how many entries a batch may hold is a deployment setting. */
export const remittancesRequest = (maxEntries: number) =>
  Type.Object({
    source: SourceWithFundraiser,
    remittances: Type.Array(RemittanceEntry, {
      minItems: 1,
      maxItems: maxEntries,
      description: `One entry per bank transaction; at most ${maxEntries}.`,
    }),
  });
