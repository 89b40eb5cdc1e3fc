import type { ColumnType } from 'kysely';

/** Column types shared by the table interfaces of schema.ts and its sibling files. */
export type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
export type Json = ColumnType<unknown, string, string>;
/** A bigint column of epoch seconds: read as a string (pg's int8), written as a number. */
export type EpochSeconds = ColumnType<string | null, number | null | undefined, number | null>;
