/**
 * Every column of a table, written out for a statement that is to be prepared: a statement expanding `*` never is
 * (docs/decisions/0052-repeated-statements-prepared.md). The list must name each column of the table's type, or the
 * build fails, so a column added to the schema cannot be left out of the rows these statements read.
 */
export function everyColumn<Table>() {
  return <const Names extends readonly (keyof Table & string)[]>(
    ...names: Names & MissingNone<Exclude<keyof Table & string, Names[number]>>
  ): Names => names;
}

/** Accepts the list when nothing is missing; otherwise the error names the missing columns. */
type MissingNone<Missing> = [Missing] extends [never] ? unknown : { missingColumns: Missing };
