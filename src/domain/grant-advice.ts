import { maskAccountNumber } from './bank-account.js';
import { formatCents } from './money.js';
import { formatAbn, longDate } from './receipt.js';

/**
 * What a grant's remittance advice says (docs/grants.md, "Advice and RCTI"), from facts alone: the same facts give
 * the same advice, in its PDF and in its e-mail. A grant to a club registered for GST is also a recipient-created
 * tax invoice (RCTI) in the foundation's own series.
 */
export interface AdviceFacts {
  sample: boolean;
  issuer: { legalName: string; abn: string };
  /** The day the advice was issued, in the foundation's time zone. */
  issuedOn: string;
  club: { name: string; memberNumber: string; abn: string | null };
  round: { number: number; date: string; paidOn: string };
  bank: { bsb: string; accountNumber: string; accountName: string };
  lodgementReference: string;
  /** A donor's name only where the donor agreed to be named; otherwise null ("Anonymous donor"). */
  donations: { date: string; reference: string; donor: string | null; amountCents: number }[];
  recoveries: { date: string; reference: string; amountCents: number }[];
  reissued: { reference: string; amountCents: number }[];
  totals: {
    donationsCents: number;
    recoveredCents: number;
    reissuedCents: number;
    feeCents: number;
    amountCents: number;
  };
  /** The RCTI's number, for a club registered for GST. */
  rctiNumber: string | null;
  /** When the grant's expenditure declaration (acquittal) is due. */
  acquittalDueOn: string | null;
}

const ANONYMOUS_DONOR = 'Anonymous donor';
export const ADVICE_SAMPLE_MARK = 'SAMPLE — NOT A REMITTANCE ADVICE';
const RCTI_TITLE = 'Recipient-created tax invoice';

/** The written agreement an RCTI must carry (the ATO's RCTI determination): both parties' declarations. */
const RCTI_AGREEMENT =
  'The recipient and the supplier declare that this agreement applies to supplies to which this tax invoice ' +
  'relates. The recipient can issue tax invoices in respect of these supplies. The supplier will not issue tax ' +
  'invoices in respect of these supplies. The supplier acknowledges that it is registered for GST and that it will ' +
  'notify the recipient if it ceases to be registered. Acceptance of this recipient-created tax invoice constitutes ' +
  'acceptance of the terms of this written agreement. The supplier agrees to notify the recipient within 21 days of ' +
  'receiving this document if it does not wish to accept the proposed agreement.';

/**
 * The GST line of an RCTI. A grant passes on gifts: the club gives nothing in return for it, so it is not
 * consideration for a taxable supply and carries no GST (docs/decisions/0068-rcti-gst-nil-on-grants.md, pending the
 * foundation's tax adviser's confirmation).
 */
const GST_LINE = 'GST: nil — a grant of donations is not consideration for a taxable supply';

/** An account number shown masked, its last three digits only. */

/** RCTI numbers: `RCTI-000001`, six digits at least. */
export const rctiNumber = (n: number): string => `RCTI-${String(n).padStart(6, '0')}`;

const aud = (cents: number) => `$${formatCents(cents)}`;

/** The advice's heading, its fact lines, its item tables and its notes, as the PDF and the e-mail show them. */
export function adviceLines(facts: AdviceFacts) {
  const title = facts.rctiNumber ? `${RCTI_TITLE} and remittance advice` : 'Remittance advice';
  const lines: [string, string][] = [
    ['To', `${facts.club.name} (member ${facts.club.memberNumber})`],
    ...(facts.club.abn ? [['Club ABN', formatAbn(facts.club.abn)] as [string, string]] : []),
    ...(facts.rctiNumber ? [['RCTI number', facts.rctiNumber] as [string, string]] : []),
    ['Issued', longDate(facts.issuedOn)],
    ['Grant round', `${facts.round.number} of ${longDate(facts.round.date)}`],
    ['Paid', longDate(facts.round.paidOn)],
    [
      'Paid to',
      `${facts.bank.accountName}, BSB ${facts.bank.bsb}, account ${maskAccountNumber(facts.bank.accountNumber, '*')}`,
    ],
    ['Lodgement reference', facts.lodgementReference],
  ];
  const donations = facts.donations.map((d) => [d.date, d.reference, d.donor ?? ANONYMOUS_DONOR, aud(d.amountCents)]);
  const recoveries = facts.recoveries.map((r) => [r.date, r.reference, 'Reversal recovered', `-${aud(r.amountCents)}`]);
  const reissued = facts.reissued.map((r) => ['', r.reference, 'Returned grant paid again', aud(r.amountCents)]);
  const { totals } = facts;
  const summary: [string, string][] = [
    [`Donations (${facts.donations.length})`, aud(totals.donationsCents)],
    ['Less reversals recovered', `-${aud(totals.recoveredCents)}`],
    ['Plus returned grants reissued', aud(totals.reissuedCents)],
    ["Less the foundation's fee", `-${aud(totals.feeCents)}`],
    ['Grant paid', `${aud(totals.amountCents)} AUD`],
  ];
  const notes = [
    ...(facts.sample ? [`${ADVICE_SAMPLE_MARK}: issued outside production, for testing only.`] : []),
    ...(facts.rctiNumber
      ? [
          `Recipient: ${facts.issuer.legalName}, ABN ${formatAbn(facts.issuer.abn)}. Supplier: ${facts.club.name}, ` +
            `ABN ${facts.club.abn ? formatAbn(facts.club.abn) : 'not on file'}.`,
          GST_LINE,
          RCTI_AGREEMENT,
        ]
      : []),
    'Donors are named only where they agreed to be named to the club.',
    facts.acquittalDueOn
      ? `This grant asks for an expenditure declaration (an acquittal), due on ${longDate(facts.acquittalDueOn)}: ` +
        'who declares it, the date, the amount spent and its purpose.'
      : 'This grant asks for an expenditure declaration (an acquittal): who declares it, the date, the amount spent ' +
        'and its purpose.',
  ];
  return { title, lines, items: [...donations, ...recoveries, ...reissued], summary, notes };
}
