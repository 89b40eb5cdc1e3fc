import { Type, type Static } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { DATE_FORMATS } from '../../domain/bank-line.js';
import { ImportRejectedError } from '../operators/operator-errors.js';

/**
 * How a CSV export's columns map to a bank line: the presets of the four major Australian banks' exports, and the
 * mapping file (JSON of the same shape) for any other bank. A column is named by its header text, or by its
 * position from 1 when the file has no header. docs/bank-statements.md describes each layout.
 */
const Column = Type.Union([Type.String({ minLength: 1, maxLength: 200 }), Type.Integer({ minimum: 1, maximum: 200 })]);

export const CsvLayout = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 60 }),
    /** Whether the first line names the columns (and is not a bank line). */
    header: Type.Boolean(),
    delimiter: Type.Optional(Type.String({ minLength: 1, maxLength: 1 })),
    dateFormat: Type.Union(DATE_FORMATS.map((f) => Type.Literal(f))),
    columns: Type.Object(
      {
        date: Column,
        /** A signed amount: positive is money in. Or `credit` and `debit`, two columns of unsigned amounts. */
        amount: Type.Optional(Column),
        credit: Type.Optional(Column),
        debit: Type.Optional(Column),
        /** Joined with spaces. */
        description: Type.Array(Column, { minItems: 1, maxItems: 10 }),
        reference: Type.Optional(Column),
        bankReference: Type.Optional(Column),
        account: Type.Optional(Column),
        valueDate: Type.Optional(Column),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);
export type CsvLayout = Static<typeof CsvLayout>;

/*
 * The exports of internet banking as the banks describe them. CommBank (NetBank) and ANZ write no header:
 * date, signed amount, description (CommBank adds the balance). Westpac writes a header with separate debit and
 * credit columns and the account; NAB a header with a signed amount, the account, the transaction type and details,
 * and dates such as 05-Mar-24.
 */
export const PRESETS: Record<'commbank' | 'westpac' | 'anz' | 'nab', CsvLayout> = {
  commbank: {
    name: 'commbank',
    header: false,
    dateFormat: 'DD/MM/YYYY',
    columns: { date: 1, amount: 2, description: [3] },
  },
  westpac: {
    name: 'westpac',
    header: true,
    dateFormat: 'DD/MM/YYYY',
    columns: {
      account: 'Bank Account',
      date: 'Date',
      description: ['Narrative'],
      debit: 'Debit Amount',
      credit: 'Credit Amount',
    },
  },
  anz: { name: 'anz', header: false, dateFormat: 'DD/MM/YYYY', columns: { date: 1, amount: 2, description: [3] } },
  nab: {
    name: 'nab',
    header: true,
    dateFormat: 'DD-MMM-YY',
    columns: {
      date: 'Date',
      amount: 'Amount',
      account: 'Account Number',
      description: ['Transaction Type', 'Transaction Details', 'Merchant Name'],
    },
  },
};
export type PresetName = keyof typeof PRESETS;
export const PRESET_NAMES = Object.keys(PRESETS) as PresetName[];

/** A mapping file's layout, or the file refused naming every field that is wrong. */
export function layoutFromMapping(fileName: string, content: string): CsvLayout {
  let value: unknown;
  try {
    value = JSON.parse(content);
  } catch (err) {
    throw new ImportRejectedError(fileName, [
      { row: 'file', field: '(file)', message: `is not JSON: ${(err as Error).message}` },
    ]);
  }
  const errors = [...Value.Errors(CsvLayout, value)].map((e) => ({
    row: 'file',
    field: e.path.slice(1).replace(/\//g, '.') || '(mapping)',
    message: e.message,
  }));
  const layout = value as CsvLayout;
  const columns = errors.length === 0 ? layout.columns : null;
  if (columns && !columns.amount === !(columns.credit && columns.debit))
    errors.push({ row: 'file', field: 'columns', message: 'must name either amount, or both credit and debit' });
  if (errors.length > 0) throw new ImportRejectedError(fileName, errors);
  return layout;
}
