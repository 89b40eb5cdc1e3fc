import { Type } from '@sinclair/typebox';
import { mailHeldReason } from './mail.js';
import { isValidAbn, normaliseAbn } from '../domain/abn.js';
import { parseDecimalToCents } from '../domain/money.js';

/**
 * Who issues donor tax receipts and under which rules (docs/receipts.md). Outside production a sample identity
 * stands in, and every receipt is marked as a sample; production refuses to start without the real one.
 */
export const ReceiptSettings = {
  FOUNDATION_LEGAL_NAME: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 200,
      description: "The foundation's legal name, as registered with its ABN: the issuer of every receipt.",
    }),
  ),
  FOUNDATION_ABN: Type.Optional(
    Type.String({
      pattern: '^[0-9 ]+$',
      description: "The foundation's ABN (11 digits, spaces allowed), checked with the ATO's checksum.",
    }),
  ),
  FOUNDATION_DGR_STATEMENT: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 500,
      description: 'The deductible-gift statement printed on every receipt (the foundation is a DGR).',
    }),
  ),
  RECEIPT_MINIMUM: Type.String({
    default: '2.00',
    pattern: '^[0-9]+(\\.[0-9]{1,2})?$',
    description: 'The smallest net gift in AUD that is receipted (the ATO threshold for a deductible gift).',
  }),
  RECEIPT_STATEMENT_DELAY_DAYS: Type.Integer({
    minimum: 0,
    maximum: 180,
    default: 14,
    description:
      'Days after 30 June that the end-of-year statements of the year just ended are issued, so that gifts of ' +
      'late June settled in early July are on them.',
  }),
};

/** The identity a pre-production deployment issues its sample receipts under (the ATO's example ABN). */
const SAMPLE_ISSUER = {
  legalName: 'Sample Sports Foundation Ltd',
  abn: '51824753556',
  dgrStatement:
    'Sample Sports Foundation Ltd is endorsed by the ATO as a deductible gift recipient. Gifts of $2 or more are ' +
    'tax deductible.',
};

interface ReceiptConfig {
  APP_ENV: string;
  FOUNDATION_LEGAL_NAME?: string;
  FOUNDATION_ABN?: string;
  FOUNDATION_DGR_STATEMENT?: string;
  RECEIPT_MINIMUM: string;
  FOUNDATION_TIME_ZONE: string;
  RECEIPTS_AFTER?: 'settled' | 'funds_received';
  SMTP_URL?: string;
  MAIL_REDIRECT_TO?: string;
}

/** Who issues and under which rules: what a receipt's register row names (docs/receipts.md). */
export interface ReceiptPolicy {
  issuer: { legalName: string; abn: string; dgrStatement: string };
  minimumCents: number;
  timeZone: string;
  /**
   * RECEIPTS_AFTER: `funds_received` holds the receipts of donations settled by a remittance entry until a bank line
   * shows the entry's money was received (docs/bank-statements.md, "Receipts").
   */
  after: 'settled' | 'funds_received';
  /**
   * Why receipts' messages cannot leave under these settings (no SMTP_URL; outside production, no MAIL_REDIRECT_TO),
   * or null: a settlement then writes its messages held, without a delivery job each, and the first instance that
   * starts able to send queues them (services/mail/worker.ts).
   */
  mailHeld: string | null;
}

/** The policy the settings give; outside production, the sample identity fills what is not set. */
export function receiptPolicy(config: ReceiptConfig): ReceiptPolicy {
  return {
    issuer: {
      legalName: config.FOUNDATION_LEGAL_NAME?.trim() || SAMPLE_ISSUER.legalName,
      abn: normaliseAbn(config.FOUNDATION_ABN ?? '') ?? SAMPLE_ISSUER.abn,
      dgrStatement: config.FOUNDATION_DGR_STATEMENT?.trim() || SAMPLE_ISSUER.dgrStatement,
    },
    minimumCents: parseDecimalToCents(config.RECEIPT_MINIMUM) ?? 200,
    timeZone: config.FOUNDATION_TIME_ZONE,
    after: config.RECEIPTS_AFTER ?? 'settled',
    mailHeld: mailHeldReason(config),
  };
}

/** The policy of code run without settings (tests of reconciliation or debits alone): the sample issuer's. */
export const SAMPLE_RECEIPT_POLICY: ReceiptPolicy = receiptPolicy({
  APP_ENV: 'sit',
  RECEIPT_MINIMUM: '2.00',
  FOUNDATION_TIME_ZONE: 'Australia/Sydney',
});

/** An ABN that fails the checksum is refused in every environment (loadConfig). */
export function receiptSettingProblems(config: Pick<ReceiptConfig, 'FOUNDATION_ABN'>): string[] {
  if (config.FOUNDATION_ABN === undefined) return [];
  const digits = normaliseAbn(config.FOUNDATION_ABN);
  return digits && isValidAbn(digits)
    ? []
    : ['  FOUNDATION_ABN: is not a valid ABN (11 digits that pass the ATO checksum)'];
}

const PLACEHOLDER = /\b(sample|example|placeholder|change ?me|test|todo|your|acme|lorem)\b|<|\.\.\.|…/i;

/**
 * What production lacks to issue real receipts, one line per setting: each of the three must be set, and none may
 * be the sample identity or a template's value. Checked when the service starts (src/server.ts).
 */
export function missingReceiptSettings(config: ReceiptConfig): string[] {
  if (config.APP_ENV !== 'production') return [];
  const problems: string[] = [];
  const check = (name: string, value: string | undefined, sample: string) => {
    if (!value?.trim()) problems.push(`  ${name}: production needs it to issue tax receipts (docs/receipts.md)`);
    else if (value.trim() === sample || PLACEHOLDER.test(value))
      problems.push(`  ${name}: looks like a placeholder; production needs the foundation's real value`);
  };
  check('FOUNDATION_LEGAL_NAME', config.FOUNDATION_LEGAL_NAME, SAMPLE_ISSUER.legalName);
  check('FOUNDATION_DGR_STATEMENT', config.FOUNDATION_DGR_STATEMENT, SAMPLE_ISSUER.dgrStatement);
  const abn = config.FOUNDATION_ABN === undefined ? undefined : normaliseAbn(config.FOUNDATION_ABN);
  if (!abn) problems.push('  FOUNDATION_ABN: production needs it to issue tax receipts (docs/receipts.md)');
  else if (abn === SAMPLE_ISSUER.abn)
    problems.push("  FOUNDATION_ABN: is the ATO's example ABN; production needs the foundation's own");
  return problems;
}
