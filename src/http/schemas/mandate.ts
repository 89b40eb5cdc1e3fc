import { Type } from '@sinclair/typebox';

/** The mandate record of section 2.12: `mandate` is `{}` until the status is `succeeded`. */
export const MandateRecord = Type.Object({
  mandateId: Type.String(),
  status: Type.String({ examples: ['requires_payment_method', 'succeeded'] }),
  mandate: Type.Object({
    acceptedAt: Type.Optional(Type.String({ format: 'date-time' })),
    paymentMethod: Type.Optional(Type.String({ examples: ['au_becs_debit'] })),
    url: Type.Optional(Type.String()),
  }),
});
