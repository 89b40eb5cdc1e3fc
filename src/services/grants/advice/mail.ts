import { ADVICE_SAMPLE_MARK, adviceLines, type AdviceFacts } from '../../../domain/grant-advice.js';
import { formatCents } from '../../../domain/money.js';
import { labelledHtml, labelledText } from '../../mail/labelled-mail.js';
import type { RenderedMail } from '../../mail/outbox.js';

/** The e-mail that carries a grant's advice: the facts' lines in text and HTML (escaped), its PDF attached. */
export function adviceMail(facts: AdviceFacts): RenderedMail {
  const { title, lines, summary } = adviceLines(facts);
  const intro = [
    `The foundation has paid ${facts.club.name} a grant of $${formatCents(facts.totals.amountCents)} from the ` +
      `donations given to the club (grant round ${facts.round.number}).`,
    `The ${facts.rctiNumber ? 'recipient-created tax invoice and remittance advice' : 'remittance advice'} is ` +
      'attached as a PDF: it lists each donation, what was recovered and the fee.',
  ];
  const rows = [...lines, ...summary];
  const footer = facts.sample ? [`${ADVICE_SAMPLE_MARK}: sent outside production, for testing only.`] : [];
  const subject = `${facts.sample ? `${ADVICE_SAMPLE_MARK} — ` : ''}${title} ${facts.lodgementReference} from ${facts.issuer.legalName}`;
  return {
    subject,
    text: labelledText(intro, rows, footer),
    html: labelledHtml(title, intro, rows, footer),
  };
}
