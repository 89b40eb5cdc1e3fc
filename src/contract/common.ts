import { Type, type TSchema } from '@sinclair/typebox';
import { ErrorCatalogue } from '../api-errors.js';
import { CHECKS_KEYWORD, type CheckName } from './checks-keyword.js';

/**
 * A string from a fixed list, documented as an enum. The serialiser treats it as a plain string (a union of
 * literals would make it try each one in turn); request validation still checks the list.
 */
export const StringEnum = <const T extends readonly string[]>(values: T, options: object = {}) =>
  Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...options });

/**
 * Identifiers and free text refuse control characters: a line break stored in a bank reference splits its row in
 * every CSV export and spreadsheet, a tab shifts its cells, and none of them belongs in a name or an id. Checks a
 * schema already names are kept beside this one.
 */
function plainText(options: { [CHECKS_KEYWORD]?: CheckName[] }) {
  return { ...options, [CHECKS_KEYWORD]: ['no-control-characters', ...(options[CHECKS_KEYWORD] ?? [])] };
}

/** Strings are bounded everywhere so that no field can carry an unbounded payload. */
export const Text = (maxLength = 200, options: object = {}) => Type.String({ maxLength, ...plainText(options) });
export const RequiredText = (maxLength = 200, options: object = {}) =>
  Type.String({ minLength: 1, maxLength, ...plainText(options) });

export const SourceChannel = RequiredText(100, {
  description:
    'Partner channel. Exact, case-sensitive. The contract defines `Storefront App` and `Registration Integration`; ' +
    'operators may add channels. A partner may only use the channels it was issued (otherwise 401).',
  examples: ['Storefront App', 'Registration Integration'],
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
  'x-correlation-id': Type.String({
    format: 'uuid',
    description: 'A fresh UUID per request; echoed as correlationId and as a response header.',
  }),
});

/** POST routes also take an Idempotency-Key: a retry with the same key replays the first response. */
export const PostHeaders = Type.Object({
  'x-correlation-id': Type.String({
    format: 'uuid',
    description: 'A fresh UUID per request; echoed as correlationId and as a response header.',
  }),
  'idempotency-key': Type.Optional(RequiredText(200, { description: 'Any string unique per logical operation.' })),
});

const ApiVersion = Type.String({ description: 'Version of the API that produced the response.', examples: ['1.0.0'] });
const CorrelationId = Type.String({
  format: 'uuid',
  description: 'Echo of the request’s X-Correlation-ID (a generated UUID when it was missing or malformed).',
});

export function SuccessEnvelope<T extends TSchema>(method: string, items: T) {
  return Type.Object({
    apiVersion: ApiVersion,
    correlationId: CorrelationId,
    method: Type.String({ description: 'Endpoint that produced the response.', examples: [method] }),
    data: Type.Object({ items }),
  });
}

/** Every code of the error catalogue: a fixed set, so the document lists it as an enum. */
const errorCodes = [...new Set(Object.values(ErrorCatalogue).map((entry) => entry.code))];

export const ErrorEnvelope = Type.Object(
  {
    apiVersion: ApiVersion,
    correlationId: CorrelationId,
    method: Type.String({ description: 'Endpoint that produced the error; `/` for unhandled errors.' }),
    error: Type.Object({
      // Unsafe: an enum of strings documents the codes without making the serialiser try each of them in turn.
      code: Type.Unsafe<string>({ type: 'string', enum: errorCodes, description: 'See the error catalogue.' }),
      timeStamp: Type.String({ format: 'date-time', description: 'ISO 8601 UTC with milliseconds.' }),
      message: Type.String({ description: 'Human-readable summary; fixed per code.' }),
      cause: Type.Optional(Type.String({ description: 'What exactly was wrong, e.g. every failing field by path.' })),
    }),
  },
  { $id: 'ErrorEnvelope', description: 'The error envelope of every error status (section 2.2).' },
);
