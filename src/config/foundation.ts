import { Type } from '@sinclair/typebox';

/** Facts about the foundation itself. */
export const FoundationSettings = {
  FOUNDATION_TIME_ZONE: Type.String({
    default: 'Australia/Sydney',
    description:
      "The foundation's IANA time zone: a transaction.date sent without an offset is a wall-clock time there.",
  }),
};
