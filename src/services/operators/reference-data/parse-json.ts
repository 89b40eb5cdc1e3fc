import { JsonAccountRecord, schemaErrors } from './row-schemas.js';
import { ProblemList, toAbn, toProduct, withoutNulls, type ParsedAccount, type ParsedFile } from './normalise.js';

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
    const memberNumber = typeof (record as { memberNumber?: unknown })?.memberNumber === 'string' ? (record as { memberNumber: string }).memberNumber : undefined;
    const ref = { row: `record ${index + 1}`, memberNumber };
    const errors = schemaErrors(JsonAccountRecord, record);
    for (const error of errors) problems.add(ref, error.field, error.message);
    if (errors.length > 0) return;
    const valid = record as JsonAccountRecord;
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
    });
  });
  return { accounts, problems: problems.items };
}
