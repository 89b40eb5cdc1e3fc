import { formatCents } from '../../domain/money.js';
import { longDate, receiptLines, SAMPLE_MARK, type ReceiptFacts } from '../../domain/receipt.js';
import { labelledHtml as page, labelledText as text } from '../mail/labelled-mail.js';
import type { RenderedMail } from '../mail/outbox.js';
import type { StatementFacts } from './statement-facts.js';

/** The e-mails of receipts: the receipt's lines in text and HTML (escaped), its PDF attached by the caller. */

const samplePrefix = (sample: boolean) => (sample ? `${SAMPLE_MARK} — ` : '');

export function receiptMail(facts: ReceiptFacts): RenderedMail {
  const { title, lines, notes } = receiptLines(facts);
  const intro = [
    `Thank you for your gift of $${formatCents(facts.amountCents)} in support of ${facts.fundraiserName}.`,
    facts.replacesNumber
      ? `This receipt replaces receipt ${facts.replacesNumber}, which is void. It is attached as a PDF.`
      : 'Your tax receipt is attached as a PDF; keep it for your tax return.',
  ];
  return {
    subject: `${samplePrefix(facts.sample)}${title} from ${facts.issuer.legalName}`,
    text: text(intro, lines, notes),
    html: page(title, intro, lines, notes),
  };
}

/** Tells the donor a receipt no longer stands (a refund); a reissue, if any, follows in its own message. */
export function voidNoticeMail(facts: ReceiptFacts, why: string): RenderedMail {
  const heading = `Receipt ${facts.number} is void`;
  const intro = [
    `Your gift of $${formatCents(facts.amountCents)} made on ${longDate(facts.giftDate)} in support of ` +
      `${facts.fundraiserName} was ${why}.`,
    `Receipt ${facts.number} is therefore void: it can no longer be used to claim a tax deduction.`,
    ...(facts.sample ? [`${SAMPLE_MARK}: sent outside production, for testing only.`] : []),
  ];
  const rows: [string, string][] = [
    ['Issued by', facts.issuer.legalName],
    ['Receipt number', facts.number],
  ];
  return {
    subject: `${samplePrefix(facts.sample)}${heading} (${facts.issuer.legalName})`,
    text: text(intro, rows, []),
    html: page(heading, intro, rows, []),
  };
}

export function statementMail(facts: StatementFacts): RenderedMail {
  const heading = `Your gifts in the financial year ${facts.financialYear}`;
  const intro = [
    `Thank you for your support. Your statement of gifts for ${facts.financialYear} is attached as a PDF: ` +
      `${facts.items.length} gift(s), $${formatCents(facts.totalCents)} AUD in all.`,
  ];
  const rows = facts.items.map((item): [string, string] => [
    item.number,
    `$${formatCents(item.amountCents)} AUD on ${longDate(item.giftDate)}`,
  ]);
  const footer = [facts.issuer.dgrStatement, ...(facts.sample ? [`${SAMPLE_MARK}: for testing only.`] : [])];
  return {
    subject: `${samplePrefix(facts.sample)}${heading} (${facts.issuer.legalName})`,
    text: text(intro, rows, footer),
    html: page(heading, intro, rows, footer),
  };
}
