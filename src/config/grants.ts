import { Type } from '@sinclair/typebox';

/**
 * Grants to clubs (docs/grants.md): when rounds are drafted, what they pay, the bank file they make and what each
 * grant asks of its club afterwards. Outside production the ABA settings default to a sample foundation account so
 * that the sandbox can make a file; production refuses to start without the real ones (grantSettingProblems).
 */
export const GrantSettings = {
  GRANT_SCHEDULE: Type.String({
    default: '15,last',
    pattern: '^\\s*(last|[1-9]|1[0-9]|2[0-8])(\\s*,\\s*(last|[1-9]|1[0-9]|2[0-8]))*\\s*$',
    description:
      "Days of the month a grant round is drafted, in the foundation's time zone: numbers 1–28 and `last`, " +
      'comma-separated.',
  }),
  GRANT_BASIS: Type.Union([Type.Literal('settled'), Type.Literal('funds_received')], {
    default: 'settled',
    description:
      'Which donations a round pays: those settled before its cut-off (`settled`), or only those whose money a bank ' +
      'line showed received (`funds_received`).',
  }),
  GRANT_FEE_PERCENT: Type.String({
    default: '0',
    pattern: '^(100(\\.0{1,2})?|[0-9]{1,2}(\\.[0-9]{1,2})?)$',
    description: "The foundation's fee, a percentage (two decimals at most) of the donations each grant pays.",
  }),
  GRANT_MINIMUM: Type.String({
    default: '20.00',
    pattern: '^[0-9]+(\\.[0-9]{1,2})?$',
    description: 'The smallest grant (AUD) paid; a smaller balance is held and carried to the next round.',
  }),
  GRANT_BANK_CHANGE_HOLD_DAYS: Type.Integer({
    minimum: 0,
    maximum: 90,
    default: 7,
    description:
      'Days after bank details are entered before a grant may be paid to them, unless the verifier waived the hold.',
  }),
  GRANT_ABA_USER_NAME: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 26,
      description:
        "The user name the foundation's bank knows the direct-entry user by (the file's descriptive record).",
    }),
  ),
  GRANT_ABA_APCA_USER_ID: Type.Optional(
    Type.String({ pattern: '^[0-9]{6}$', description: 'The APCA direct-entry user id the bank issued (6 digits).' }),
  ),
  GRANT_ABA_BANK: Type.Optional(
    Type.String({
      pattern: '^[A-Z]{3}$',
      description: "The three-letter code of the foundation's bank (CBA, WBC, ANZ, NAB, …).",
    }),
  ),
  GRANT_ABA_BSB: Type.Optional(
    Type.String({
      pattern: '^[0-9]{3}-?[0-9]{3}$',
      description: "The BSB of the foundation's account that pays the grants: the trace and balancing record.",
    }),
  ),
  GRANT_ABA_ACCOUNT: Type.Optional(
    Type.String({
      pattern: '^[0-9]{5,9}$',
      description: "The number of the foundation's account that pays the grants.",
    }),
  ),
  GRANT_ABA_REMITTER: Type.String({
    default: 'SPORTS FOUNDATN',
    minLength: 1,
    maxLength: 16,
    description: "The remitter's name clubs see on their statement (16 characters at most).",
  }),
  ACQUITTAL_DUE_DAYS: Type.Integer({
    minimum: 1,
    maximum: 730,
    default: 90,
    description: 'Days after a grant is paid that its club owes the expenditure declaration (the acquittal).',
  }),
  ACQUITTAL_REMINDER_DAYS: Type.Integer({
    minimum: 0,
    maximum: 365,
    default: 14,
    description: "Days before an acquittal is due that the club's finance contact is reminded (0: no reminder).",
  }),
};

/** The sample foundation account a pre-production deployment's ABA files are made for. */
const SAMPLE_ABA = {
  userName: 'SAMPLE SPORTS FOUNDATION',
  apcaUserId: '000000',
  bank: 'CBA',
  bsb: '062-000',
  account: '12345678',
};

interface GrantConfig {
  APP_ENV: string;
  GRANT_ABA_USER_NAME?: string;
  GRANT_ABA_APCA_USER_ID?: string;
  GRANT_ABA_BANK?: string;
  GRANT_ABA_BSB?: string;
  GRANT_ABA_ACCOUNT?: string;
  GRANT_ABA_REMITTER: string;
}

/** Who pays the grants in the bank's file: the configured account, or the sample one outside production. */
export interface AbaPayer {
  userName: string;
  apcaUserId: string;
  bank: string;
  bsb: string;
  account: string;
  remitter: string;
}

export function abaPayer(config: GrantConfig): AbaPayer {
  const bsb = config.GRANT_ABA_BSB ?? SAMPLE_ABA.bsb;
  return {
    userName: config.GRANT_ABA_USER_NAME ?? SAMPLE_ABA.userName,
    apcaUserId: config.GRANT_ABA_APCA_USER_ID ?? SAMPLE_ABA.apcaUserId,
    bank: config.GRANT_ABA_BANK ?? SAMPLE_ABA.bank,
    bsb: bsb.includes('-') ? bsb : `${bsb.slice(0, 3)}-${bsb.slice(3)}`,
    account: config.GRANT_ABA_ACCOUNT ?? SAMPLE_ABA.account,
    remitter: config.GRANT_ABA_REMITTER,
  };
}

/**
 * Production pays real money: it needs the foundation's own bank identity, never the sample's. Checked when the
 * service starts (src/server.ts), as the receipts' identity is, so that the CLI still runs to fix things.
 */
export function missingGrantSettings(config: GrantConfig): string[] {
  if (config.APP_ENV !== 'production') return [];
  const required = [
    'GRANT_ABA_USER_NAME',
    'GRANT_ABA_APCA_USER_ID',
    'GRANT_ABA_BANK',
    'GRANT_ABA_BSB',
    'GRANT_ABA_ACCOUNT',
  ] as const;
  return required
    .filter((key) => config[key] === undefined)
    .map((key) => `  ${key}: required in production (the grants' ABA file pays from the foundation's account)`);
}
