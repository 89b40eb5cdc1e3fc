import { formatCents } from './money.js';

/**
 * What a donor tax receipt says, in the words the PDF and the e-mails use: one source for both, so what the ATO
 * requires (docs/receipts.md, "What a receipt states") is written once. Pure: it is given a register row's values.
 */
export interface ReceiptFacts {
  number: string;
  sample: boolean;
  issuer: { legalName: string; abn: string; dgrStatement: string };
  donorName: string;
  donorBusinessName: string | null;
  amountCents: number;
  giftDate: string;
  fundraiserName: string;
  issuedOn: string;
  replacesNumber: string | null;
  voided: { on: string; reason: string } | null;
}

/** The line outside production that no one can mistake for a receipt. */
export const SAMPLE_MARK = 'SAMPLE — NOT A TAX RECEIPT';
export const NO_BENEFIT =
  'No goods, services or other material benefit were received in return for this gift: it is a gift.';

/** "51 824 753 556": how an ABN is written for people. */
export const formatAbn = (abn: string): string => abn.replace(/^(\d{2})(\d{3})(\d{3})(\d{3})$/, '$1 $2 $3 $4');

/** "Tuesday 30 June 2026" is too long for a receipt: "30 June 2026". Built once: a formatter costs ~0.1 ms. */
const LONG_DATE = new Intl.DateTimeFormat('en-AU', { timeZone: 'UTC', day: 'numeric', month: 'long', year: 'numeric' });

export function longDate(date: string): string {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  return LONG_DATE.format(new Date(Date.UTC(year, month - 1, day)));
}

/** The name the receipt is made out to: the business when the donor gave one, else the donor's name. */
const receivedFrom = (facts: Pick<ReceiptFacts, 'donorName' | 'donorBusinessName'>): string =>
  facts.donorBusinessName ? `${facts.donorBusinessName} (given by ${facts.donorName})` : facts.donorName;

/** The receipt's title and its labelled lines, in order: every field the ATO asks for. */
export function receiptLines(facts: ReceiptFacts): { title: string; lines: [string, string][]; notes: string[] } {
  const title = facts.voided ? `Receipt ${facts.number} (VOID)` : `Tax receipt ${facts.number}`;
  const lines: [string, string][] = [
    ['Issued by', facts.issuer.legalName],
    ['ABN', formatAbn(facts.issuer.abn)],
    ['Receipt number', facts.number],
    ['Date issued', longDate(facts.issuedOn)],
    ['Received from', receivedFrom(facts)],
    ['Amount of gift', `$${formatCents(facts.amountCents)} AUD`],
    ['Date of gift', longDate(facts.giftDate)],
    ['In support of', facts.fundraiserName],
  ];
  if (facts.replacesNumber) lines.push(['Replaces receipt', facts.replacesNumber]);
  const notes = [facts.issuer.dgrStatement, NO_BENEFIT];
  if (facts.voided) notes.unshift(`This receipt was voided on ${longDate(facts.voided.on)} (${facts.voided.reason}).`);
  if (facts.sample) notes.unshift(`${SAMPLE_MARK}: issued outside production, for testing only.`);
  return { title, lines, notes };
}
