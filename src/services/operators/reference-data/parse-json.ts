import { JsonAccountRecord, JsonProduct, schemaErrors, withoutFailingFields } from './row-schemas.js';
import {
  ProblemList,
  toAbn,
  toClubColumns,
  toProduct,
  withoutNulls,
  type ParsedAccount,
  type ParsedFile,
} from './normalise.js';

/**
 * Reads a JSON import file: an array of account records, or `{ "accounts": [...] }`. Each record is one account
 * with its products; records are numbered from 1 in problem reports.
 */
export function parseJsonAccounts(content: string): ParsedFile {
  const problems = new ProblemList();
  let document: unknown;
  try {
    document = JSON.parse(content);
  } catch (err) {
    problems.add({ row: 'file' }, '(file)', `is not valid JSON: ${(err as Error).message}`);
    return { accounts: [], problems: problems.items };
  }
  const records = Array.isArray(document) ? document : (document as { accounts?: unknown } | null)?.accounts;
  if (!Array.isArray(records)) {
    problems.add({ row: 'file' }, '(file)', 'must be a JSON array of accounts, or an object with an "accounts" array');
    return { accounts: [], problems: problems.items };
  }

  const accounts: ParsedAccount[] = [];
  records.forEach((raw, index) => {
    const record = withoutNulls(raw);
    const memberNumber =
      typeof (record as { memberNumber?: unknown })?.memberNumber === 'string'
        ? (record as { memberNumber: string }).memberNumber
        : undefined;
    const ref = { row: `record ${index + 1}`, memberNumber };
    const errors = schemaErrors(JsonAccountRecord, record);
    for (const error of errors) problems.add(ref, error.field, error.message);
    // Keep checking what did pass (amounts, ABN, channels...) so the report is complete; the file is rejected anyway.
    const valid = (
      errors.length > 0 ? usablePart(withoutFailingFields(record, errors)) : record
    ) as JsonAccountRecord | null;
    if (!valid) return;
    accounts.push({
      row: ref.row,
      input: {
        memberNumber: valid.memberNumber,
        crmId: valid.crmId ?? null,
        name: valid.name.trim(),
        abn: toAbn(valid.abn, ref, problems),
        products: (valid.products ?? []).map((product, i) => toProduct(product, ref, problems, `products[${i}].`)),
      },
      channelRefs: (valid.products ?? []).map((_, i) => ({ row: ref.row, field: `products[${i}].channel` })),
      club: toClubColumns(valid, ref, problems),
    });
  });
  return { accounts, problems: problems.items };
}

/** What is left of a record once its failing fields are dropped: null without an account, and only whole products. */
function usablePart(record: unknown): JsonAccountRecord | null {
  if (schemaErrors(JsonAccountRecord, { ...(record as object), products: [] }).length > 0) return null;
  const products = (record as { products?: unknown[] }).products ?? [];
  return {
    ...(record as JsonAccountRecord),
    products: products.filter((p) => schemaErrors(JsonProduct, p).length === 0) as JsonAccountRecord['products'],
  };
}
