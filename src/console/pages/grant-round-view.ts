import { html } from 'ghtml';
import type { ConsoleSession } from '../../services/console/sessions.js';
import type { RoundReview } from '../../services/grants/rounds/review.js';
import type { GrantLineView, RoundView } from '../../services/grants/rounds/view.js';
import { canChange, csrfField, dataTable, detailList, link, readOnlyNote } from '../views/components.js';
import { aud } from '../views/format.js';

/** What the page of one grant round shows (grant-rounds.ts): the round, its lines, the held list, the changes. */

const cents = (value: string | number | null) => (value === null ? null : aud(Number(value)));

const roundDetails = (r: RoundView) =>
  detailList([
    ['Round', r.number],
    ['Status', r.status],
    ['Scheduled for', r.scheduledOn ?? 'drafted by an operator'],
    ['Cut-off', r.cutoffAt],
    ['Total (AUD)', cents(r.totalCents)],
    ['Grants paid / held', `${r.grantCount} / ${r.heldCount}`],
    ['Drafted', `${r.draftedBy} at ${r.draftedAt}`],
    ['Reviewed', r.reviewedBy ? `${r.reviewedBy} at ${r.reviewedAt}` : 'not yet'],
    ['Approved', r.approvedBy ? `${r.approvedBy} at ${r.approvedAt}` : 'not yet'],
    ['Paid', r.paidBy ? `${r.paidBy} at ${r.paidAt}` : 'not yet'],
    ['Cancelled', r.cancelledBy ? `${r.cancelledBy}: ${r.cancelReason ?? ''}` : null],
    ['ABA file SHA-256', r.abaSha256],
  ]);

const lineColumns = [
  {
    header: 'Club',
    cell: (l: GrantLineView) => link(`/console/grants/clubs/${l.memberNumber}`, `${l.club} (${l.memberNumber})`),
  },
  { header: 'Status', text: (l: GrantLineView) => l.status },
  { header: 'Held because', text: (l: GrantLineView) => l.holdReason },
  { header: 'Donations', text: (l: GrantLineView) => cents(l.donationsCents), numeric: true },
  { header: 'Recovered', text: (l: GrantLineView) => cents(l.recoveredCents), numeric: true },
  { header: 'Reissued', text: (l: GrantLineView) => cents(l.reissuedCents), numeric: true },
  { header: 'Fee', text: (l: GrantLineView) => cents(l.feeCents), numeric: true },
  { header: 'Grant (AUD)', text: (l: GrantLineView) => cents(l.amountCents), numeric: true },
  { header: 'Account', text: (l: GrantLineView) => (l.bsb ? `${l.bsb} ${l.account ?? ''}` : null) },
  { header: 'Lodgement reference', text: (l: GrantLineView) => l.lodgementReference },
];

export function roundBody(review: RoundReview, session: ConsoleSession): string {
  const r = review.round;
  const n = r.number;
  return html`!${roundDetails(r)}
  !${r.abaSha256 ? html`<p>!${link(`/console/grants/rounds/${n}/aba`, 'Download the ABA file')}</p>` : ''}
  !${dataTable(review.lines, lineColumns, { caption: 'Totals per club', empty: 'The round has no line.' })}
  !${dataTable(review.held, lineColumns, { caption: 'Held, with the reason', empty: 'No club is held.' })}
  !${dataTable(
    review.changes,
    [
      { header: 'Club', text: (c) => `${c.club} (${c.memberNumber})` },
      { header: 'Change', text: (c) => c.change },
      { header: 'Before', text: (c) => (c.before ? `${c.before.status} ${cents(c.before.amountCents)}` : null) },
      { header: 'Now', text: (c) => (c.now ? `${c.now.status} ${cents(c.now.amountCents)}` : null) },
    ],
    {
      caption: review.comparedWith ? `Changes since round ${review.comparedWith}` : 'Changes (no earlier round)',
      empty: 'Nothing changed.',
    },
  )}
  !${canChange(session) ? actions(r, session) : readOnlyNote('grant rounds')}`;
}

const action = (n: number, session: ConsoleSession, what: string, label: string, confirm: string, extra = '') =>
  html`<form class="inline" method="post" action="/console/grants/rounds/${n}/${what}">
    !${csrfField(session)}!${extra}<button type="submit" data-confirm="${confirm}">${label}</button>
  </form>`;

function actions(r: RoundView, session: ConsoleSession): string {
  const n = r.number;
  if (r.status === 'draft')
    return html`<h2>Decide</h2>
      !${action(n, session, 'review', 'Mark reviewed', `Mark round ${n} reviewed?`)}
      !${action(n, session, 'approve', 'Approve (makes the ABA file)', `Approve round ${n}? It never changes after.`)}
      !${action(
        n,
        session,
        'cancel',
        'Cancel the draft',
        `Cancel round ${n}?`,
        html`<label for="reason">Why</label><input id="reason" name="reason" required maxlength="500" />`,
      )}`;
  if (r.status === 'approved')
    return html`<h2>Payment</h2>
      !${action(n, session, 'paid', 'Mark paid (file uploaded)', `Mark round ${n} paid? Once only.`)}`;
  return '';
}
