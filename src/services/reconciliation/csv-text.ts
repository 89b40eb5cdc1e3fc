import { stringify, type Input, type Options } from 'csv-stringify/sync';

/** A CR or LF anywhere in a cell. */
const LINE_BREAK = /[\r\n]/;

/**
 * CSV text as every export of this service writes it: a cell holding a CR or LF is always quoted (RFC 4180).
 * csv-stringify on its own quotes only its record delimiter once one is set, so with CRLF line ends a lone CR or
 * LF went out unquoted and split the row in a spreadsheet. Identifiers and free text are refused with control
 * characters at the door now, but rows stored before that may still hold them.
 */
export function csvText(records: Input, options: Options = {}): string {
  return stringify(records, { ...options, quoted_match: LINE_BREAK });
}
