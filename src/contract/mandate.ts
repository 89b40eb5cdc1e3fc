import { Type, type Static } from '@sinclair/typebox';
import { RequiredText, SourceWithFundraiser, StringEnum } from './common.js';
import { SETUP_INTENT_STATUSES } from '../domain/setup-intent-status.js';

/** MandateRequest (section 4.7). */
export const MandateRequest = Type.Object({
  source: SourceWithFundraiser,
  fundraiser: Type.Object({
    firstName: RequiredText(100),
    lastName: RequiredText(100),
    email: Type.String({ format: 'email', maxLength: 254 }),
  }),
  paymentMethod: Type.Literal('Direct Debit'),
});
export type MandateRequest = Static<typeof MandateRequest>;

/** The mandate record of section 2.12: `mandate` is `{}` until the status is `succeeded`. */
export const MandateRecord = Type.Object({
  mandateId: Type.String(),
  status: StringEnum(SETUP_INTENT_STATUSES, { description: 'The payment provider’s setup-intent status.' }),
  mandate: Type.Object(
    {
      acceptedAt: Type.Optional(Type.String({ format: 'date-time' })),
      paymentMethod: Type.Optional(StringEnum(['au_becs_debit'])),
      url: Type.Optional(Type.String({ description: 'The hosted mandate confirmation.' })),
      status: Type.Optional(
        StringEnum(['active', 'inactive', 'pending'], {
          description:
            'With Stripe: whether the mandate can still be debited. `inactive` once revoked or rejected by the bank.',
        }),
      ),
    },
    { description: '`{}` until the status is `succeeded`.' },
  ),
});

export const succeededMandateExample = {
  mandateId: 'seti_12flWgZGxGxeJLOxhdrFmxD9',
  status: 'succeeded',
  mandate: {
    acceptedAt: '2026-11-21T10:46:13.227Z',
    paymentMethod: 'au_becs_debit',
    url: 'https://sandbox.example.org/v1/sandbox/mandate-confirmations/seti_12flWgZGxGxeJLOxhdrFmxD9',
  },
};
