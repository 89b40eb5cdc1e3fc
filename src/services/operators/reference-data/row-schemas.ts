import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { Value, ValueErrorType } from '@sinclair/typebox/value';

/**
 * The shapes of an import file's rows: one TypeBox schema per shape (a JSON account record, a CSV row), built from
 * the same field rules so both formats accept the same values. Each rule carries the message an operator reads.
 */
const rule = <T extends TSchema>(schema: T, errorMessage: string): T => ({ ...schema, errorMessage });

const text = (max: number) => rule(Type.String({ maxLength: max }), `must be text of at most ${max} characters`);
const nonBlank = (max: number) =>
  rule(
    Type.String({ minLength: 1, maxLength: max, pattern: '\\S' }),
    `must be non-blank text of at most ${max} characters`,
  );
const url = rule(Type.String({ maxLength: 2000, pattern: '^https?://[^\\s]+$' }), 'must be an http(s) URL');

const Fields = {
  memberNumber: rule(
    Type.String({ pattern: '^[A-Za-z0-9._-]{1,40}$' }),
    'must be 1 to 40 letters, digits, dots, dashes or underscores',
  ),
  crmId: rule(
    Type.String({ pattern: '^([A-Za-z0-9]{15}|[A-Za-z0-9]{18})$' }),
    'must be a CRM account id of 15 or 18 letters and digits',
  ),
  name: nonBlank(200),
  abn: rule(Type.String({ pattern: '^[0-9 ]+$' }), 'must be an 11-digit ABN'),
  channel: nonBlank(100),
  description: text(2000),
  status: nonBlank(100),
  logo: url,
  coverImage: url,
  story: text(10_000),
  productEnrollmentId: nonBlank(100),
  enrollmentStatus: nonBlank(100),
  // A club's bank details: checked in full (format, the BSB directory) once read, like the ABN.
  bsb: rule(Type.String({ maxLength: 20 }), 'must be a BSB written NNN-NNN'),
  accountNumber: rule(Type.String({ maxLength: 20 }), 'must be an account number of 5 to 9 digits'),
  accountName: text(100),
};

const amount = rule(Type.Union([Type.Number(), Type.String()]), 'must be an AUD amount such as 5 or "12.50"');

export const JsonProduct = rule(
  Type.Object(
    {
      channel: Fields.channel,
      status: Fields.status,
      description: Type.Optional(Fields.description),
      logo: Type.Optional(Fields.logo),
      coverImage: Type.Optional(Fields.coverImage),
      donationAmounts: Type.Optional(rule(Type.Array(amount), 'must be a list of AUD amounts')),
      story: Type.Optional(Fields.story),
      campaigns: Type.Optional(rule(Type.Record(Type.String(), Type.Unknown()), 'must be a JSON object')),
      productEnrollmentId: Type.Optional(Fields.productEnrollmentId),
      enrollmentStatus: Type.Optional(Fields.enrollmentStatus),
    },
    { additionalProperties: false },
  ),
  'must be a product object with at least channel and status',
);

/** One element of a JSON import file (an array of these, or `{ "accounts": [...] }`). `null` means absent. */
export const JsonAccountRecord = rule(
  Type.Object(
    {
      memberNumber: Fields.memberNumber,
      crmId: Type.Optional(Fields.crmId),
      name: Fields.name,
      abn: Type.Optional(Fields.abn),
      bsb: Type.Optional(Fields.bsb),
      accountNumber: Type.Optional(Fields.accountNumber),
      accountName: Type.Optional(Fields.accountName),
      gstRegistered: Type.Optional(rule(Type.Boolean(), 'must be true or false')),
      products: Type.Optional(rule(Type.Array(JsonProduct), 'must be a list of products')),
    },
    { additionalProperties: false },
  ),
  'must be an account object with at least memberNumber and name',
);
export type JsonAccountRecord = Static<typeof JsonAccountRecord>;

/**
 * One CSV line: an account and, when `channel` is filled, one of its products (so an account with two channels
 * takes two lines that repeat the account columns). Empty cells mean absent. Suggested amounts are written
 * "5;10;20" and campaigns as a JSON object.
 */
export const CsvRow = Type.Object(
  {
    memberNumber: Fields.memberNumber,
    crmId: Type.Optional(Fields.crmId),
    name: Fields.name,
    abn: Type.Optional(Fields.abn),
    channel: Type.Optional(Fields.channel),
    status: Type.Optional(Fields.status),
    description: Type.Optional(Fields.description),
    logo: Type.Optional(Fields.logo),
    coverImage: Type.Optional(Fields.coverImage),
    donationAmounts: Type.Optional(
      rule(Type.String({ pattern: '^[^;]*(;[^;]*)*$' }), 'must be AUD amounts separated by ";" such as 5;10;20'),
    ),
    story: Type.Optional(Fields.story),
    campaigns: Type.Optional(rule(Type.String(), 'must be a JSON object')),
    productEnrollmentId: Type.Optional(Fields.productEnrollmentId),
    enrollmentStatus: Type.Optional(Fields.enrollmentStatus),
    bsb: Type.Optional(Fields.bsb),
    accountNumber: Type.Optional(Fields.accountNumber),
    accountName: Type.Optional(Fields.accountName),
    gstRegistered: Type.Optional(
      rule(
        Type.String({ pattern: '^([Yy][Ee][Ss]|[Nn][Oo]|[Tt][Rr][Uu][Ee]|[Ff][Aa][Ll][Ss][Ee])$' }),
        'must be yes or no',
      ),
    ),
  },
  { additionalProperties: false },
);
export type CsvRow = Static<typeof CsvRow>;

/** The columns of the CSV layout, in the order of the example file. */
export const CSV_COLUMNS = Object.keys(CsvRow.properties) as (keyof CsvRow)[];

export interface FieldError {
  /** JSON-pointer-like path turned into a field name: "products[1].donationAmounts[0]". */
  field: string;
  message: string;
}

/** Every failing field of `value`, one message per field, in the words of the rules above. */
export function schemaErrors(schema: TSchema, value: unknown): FieldError[] {
  const byField = new Map<string, string>();
  for (const error of Value.Errors(schema, value)) {
    const field = pointerToField(error.path) || '(record)';
    if (byField.has(field)) continue;
    const message =
      error.type === ValueErrorType.ObjectRequiredProperty
        ? 'is required'
        : error.type === ValueErrorType.ObjectAdditionalProperties
          ? 'is not a known field'
          : ((error.schema as { errorMessage?: string }).errorMessage ?? error.message);
    byField.set(field, message);
  }
  return [...byField].map(([field, message]) => ({ field, message }));
}

function pointerToField(path: string): string {
  return path
    .split('/')
    .slice(1)
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((field, part) => (/^\d+$/.test(part) ? `${field}[${part}]` : field ? `${field}.${part}` : part), '');
}

/**
 * `value` without the fields that failed (a failing list element drops its whole list), so that the values that
 * did pass can still be checked and one report names every problem of a row. Rows still missing a required
 * field afterwards are left to the caller to skip.
 */
export function withoutFailingFields<T>(value: T, errors: readonly FieldError[]): T {
  const copy = structuredClone(value);
  for (const { field } of errors) {
    const path = field.split(/\.|(?=\[)/).map((part) => (part.startsWith('[') ? Number(part.slice(1, -1)) : part));
    const lastKey = path.map((part) => typeof part === 'string').lastIndexOf(true);
    if (lastKey < 0 || path[0] === '(record)') continue;
    const parent = path
      .slice(0, lastKey)
      .reduce<unknown>((node, part) => (node as Record<string | number, unknown> | undefined)?.[part], copy);
    if (parent && typeof parent === 'object') delete (parent as Record<string, unknown>)[path[lastKey] as string];
  }
  return copy;
}
