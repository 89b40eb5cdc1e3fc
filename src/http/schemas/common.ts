import { Type, type TSchema } from '@sinclair/typebox';

/** Strings are bounded everywhere so that no field can carry an unbounded payload. */
export const Text = (maxLength = 200, options: object = {}) => Type.String({ maxLength, ...options });
export const RequiredText = (maxLength = 200, options: object = {}) => Type.String({ minLength: 1, maxLength, ...options });

export const SourceChannel = Type.String({
  minLength: 1,
  maxLength: 100,
  description:
    'Partner channel. Exact, case-sensitive. The contract defines `Storefront App` and `Registration Integration`; ' +
    'operators may add channels. A partner may only use the channels it was issued (otherwise 401).',
  examples: ['Storefront App', 'Registration Integration'],
});

export const Source = Type.Object({
  channel: SourceChannel,
  fundraiserId: Type.Optional(RequiredText(64, { description: 'Member number, or CRM account id (15 or 18 characters).' })),
  fundraiserAccountName: Type.Optional(Text(200)),
  productEnrollmentId: Type.Optional(Text(100)),
});

/** Source where `fundraiserId` is required (donations, remittances). */
export const SourceWithFundraiser = Type.Object({
  channel: SourceChannel,
  fundraiserId: RequiredText(64, { description: 'Member number, or CRM account id (15 or 18 characters).' }),
  fundraiserAccountName: Type.Optional(Text(200)),
  productEnrollmentId: Type.Optional(Text(100)),
});

/** Headers documented on every route (credentials are documented as security schemes). */
export const RequestHeaders = Type.Object({
  'x-correlation-id': Type.String({ format: 'uuid', description: 'A fresh UUID per request; echoed as correlationId and as a response header.' }),
});

/** POST routes also take an Idempotency-Key: a retry with the same key replays the first response. */
export const PostHeaders = Type.Object({
  'x-correlation-id': Type.String({ format: 'uuid', description: 'A fresh UUID per request; echoed as correlationId and as a response header.' }),
  'idempotency-key': Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Any string unique per logical operation.' })),
});

export function SuccessEnvelope<T extends TSchema>(method: string, items: T) {
  return Type.Object({
    apiVersion: Type.String({ examples: ['1.0.0'] }),
    correlationId: Type.String(),
    method: Type.String({ examples: [method] }),
    data: Type.Object({ items }),
  });
}

export const ErrorEnvelope = Type.Object(
  {
    apiVersion: Type.String(),
    correlationId: Type.String(),
    method: Type.String(),
    error: Type.Object({
      code: Type.String({ examples: ['FUNDRAISER:VALIDATION'] }),
      timeStamp: Type.String({ format: 'date-time' }),
      message: Type.String(),
      cause: Type.Optional(Type.String()),
    }),
  },
  { $id: 'ErrorEnvelope' },
);

/** The error responses every secured route can give, for the OpenAPI document. */
export const standardErrors = {
  400: Type.Ref(ErrorEnvelope),
  401: Type.Ref(ErrorEnvelope),
  429: Type.Ref(ErrorEnvelope),
  500: Type.Ref(ErrorEnvelope),
  503: Type.Ref(ErrorEnvelope),
};
