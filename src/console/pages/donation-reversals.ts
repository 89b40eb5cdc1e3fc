import { html } from 'ghtml';
import { REQUESTABLE_REASONS } from '../../domain/reversal.js';
import type { ConsoleSession } from '../../services/console/sessions.js';
import type { DonationDetail } from '../../services/operators/donations.js';
import { owedBackState, type ReversalRow } from '../../services/operators/reversals.js';
import { canChange, csrfField, dataTable, detailList, readOnlyNote, selectField } from '../views/components.js';
import { aud } from '../views/format.js';

/**
 * The reversals of a donation on its console page (docs/reversals.md): what went back, its net amount, what is owed
 * back, and for admins the form that reverses it (POST /console/donations/:reference/reversals, src/console/pages/
 * donations.ts), with a ticked confirmation asked again by the browser when the script runs.
 */
export function reversalsSection(detail: DonationDetail, session: ConsoleSession): string {
  const { donation: d } = detail;
  const left = d.amountCents === null ? null : d.amountCents - detail.reversedCents;
  const facts = detailList([
    ['Reversed (AUD)', aud(detail.reversedCents)],
    ['Net amount (AUD)', aud(left)],
    ['Owed back, not repaid (AUD)', aud(detail.owedBackCents)],
  ]);
  const form =
    left === null || left <= 0
      ? ''
      : canChange(session)
        ? reverseForm(detail, left, session)
        : readOnlyNote('donations');
  return html`<h2>Reversals</h2>
    !${facts}!${reversalTable(detail.reversals)}!${form}`;
}

const reversalTable = (rows: ReversalRow[]) =>
  dataTable(
    rows,
    [
      { header: 'Reversal', text: (r) => r.reversalId },
      { header: 'Reversed', text: (r) => r.createdAt },
      { header: 'AUD', text: (r) => aud(r.amountCents), numeric: true },
      { header: 'Reason', text: (r) => r.reason },
      { header: 'Asked by', text: (r) => r.requestedBy },
      { header: 'Note', text: (r) => r.note },
      { header: 'Owed back', text: owedBackState },
    ],
    { caption: 'Reversals of this donation, oldest first', empty: 'Not reversed.' },
  );

const reverseForm = (detail: DonationDetail, left: number, session: ConsoleSession) =>
  html`<form
    class="card"
    method="post"
    action="/console/donations/${encodeURIComponent(detail.donation.referenceId)}/reversals"
  >
    <h3>Reverse for the foundation</h3>
    !${csrfField(session)}
    <p>
      <label for="amount">Amount (AUD, at most ${aud(left)})</label
      ><input id="amount" name="amount" required inputmode="decimal" value="${aud(left)}" />
    </p>
    !${selectField({ id: 'reason', label: 'Reason', options: REQUESTABLE_REASONS, chosen: undefined })}
    <p>
      <label for="note">Note (kept in the audit log and finance’s list; the partner reads “foundation”)</label
      ><input id="note" name="note" required maxlength="500" />
    </p>
    <p>
      <label class="check"
        ><input type="checkbox" name="confirm" value="yes" required /> The partner is told; this cannot be undone</label
      >
    </p>
    <p>
      <button type="submit" class="danger" data-confirm="Reverse this amount of the donation? It cannot be undone.">
        Reverse
      </button>
    </p>
  </form>`;
