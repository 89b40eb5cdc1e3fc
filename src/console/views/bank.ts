import { html } from 'ghtml';
import type { ConsoleSession } from '../../services/console/sessions.js';
import type { BankLine, BankMatch, OpenSuggestion, UnpaidEntry } from '../../services/bank-statements/listings.js';
import type { ImportProblem } from '../../services/operators/operator-errors.js';
import { canChange, csrfField, dataTable, link, type Column } from './components.js';
import { aud } from './format.js';

/** The tables and forms of the bank pages (docs/bank-statements.md, "Console"). */

const batchLink = (batchId: string, index: number) =>
  link(`/console/remittances/${encodeURIComponent(batchId)}`, `${batchId.slice(0, 8)}… #${index}`);

export function suggestionsTable(rows: readonly OpenSuggestion[], session: ConsoleSession) {
  return dataTable(
    rows,
    [
      { header: 'No.', text: (s) => s.id, numeric: true },
      { header: 'Score', text: (s) => s.score, numeric: true },
      { header: 'Rule', text: (s) => s.rule.replace(/_/g, ' ') },
      {
        header: 'Bank lines',
        text: (s) => s.lines.map((l) => `${l.bookedOn} ${aud(l.amountCents)} ${l.reference ?? l.description}`),
      },
      {
        header: 'Entries',
        cell: (s) =>
          s.entries
            .map((e) => html`!${batchLink(e.batchId, e.index)} ${e.bankReferenceId} ${aud(e.amountCents)}`)
            .join('<br />'),
      },
      { header: 'Why', text: (s) => s.reasons },
      { header: '', cell: (s) => (canChange(session) ? decisionForms(s, session) : '') },
    ],
    { caption: 'Suggestions to confirm or reject, best first', empty: 'No open suggestion.' },
  );
}

const decisionForms = (s: OpenSuggestion, session: ConsoleSession) =>
  html`<form class="inline" method="post" action="/console/bank/suggestions/${s.id}/confirm">
      !${csrfField(session)}<button type="submit" data-confirm="Confirm suggestion ${s.id} (${aud(s.lineCents)} AUD)?">
        Confirm
      </button>
    </form>
    <form class="inline" method="post" action="/console/bank/suggestions/${s.id}/reject">
      !${csrfField(session)}<label for="reject-${s.id}">Why not</label
      ><input id="reject-${s.id}" name="reason" maxlength="500" />
      <button type="submit">Reject</button>
    </form>`;

export const linesTable = (rows: readonly BankLine[]) =>
  dataTable(
    rows,
    [
      { header: 'Line', text: (l) => l.id, numeric: true },
      { header: 'Booked', text: (l) => l.bookedOn },
      { header: 'Age (days)', text: (l) => l.ageDays, numeric: true },
      { header: 'AUD', text: (l) => aud(l.amountCents), numeric: true },
      { header: 'Reference', text: (l) => l.reference },
      { header: 'Description', text: (l) => l.description },
      { header: 'From', text: (l) => `${l.file} line ${l.lineNo}` },
    ],
    { caption: 'Credit lines not matched, oldest first', empty: 'Every credit line is matched.' },
  );

export const unpaidTable = (rows: readonly UnpaidEntry[]) =>
  dataTable(
    rows,
    [
      { header: 'Entry', cell: (e) => batchLink(e.batchId, e.index) },
      { header: 'Bank reference', text: (e) => e.bankReferenceId },
      { header: 'AUD', text: (e) => aud(e.amountCents), numeric: true },
      { header: 'Partner', text: (e) => e.partner },
      { header: 'Batch received', text: (e) => e.receivedAt },
      { header: 'Age (days)', text: (e) => e.ageDays, numeric: true },
    ],
    { caption: 'Entries whose money was not received, oldest first', empty: 'Every entry’s money was received.' },
  );

/** The matches made (caption "Matches, newest first"), with the admins' form that undoes one. */
export function matchesColumns(session: ConsoleSession): Column<BankMatch>[] {
  return [
    { header: 'Match', text: (m) => m.id, numeric: true },
    { header: 'How', text: (m) => `${m.method}, ${m.rule.replace(/_/g, ' ')}` },
    { header: 'Lines', text: (m) => m.lineIds },
    { header: 'Entries', text: (m) => m.entries.length },
    { header: 'AUD', text: (m) => aud(m.lineCents), numeric: true },
    { header: 'Decided', text: (m) => `${m.decidedAt.toISOString().slice(0, 16)}Z by ${m.decidedBy}` },
    {
      header: 'Undone',
      cell: (m) =>
        m.unmatched
          ? html`${`by ${m.unmatched.by}: ${m.unmatched.reason ?? ''}`}`
          : canChange(session)
            ? unmatchForm(m, session)
            : '',
    },
  ];
}

const unmatchForm = (m: BankMatch, session: ConsoleSession) =>
  html`<form class="inline" method="post" action="/console/bank/matches/${m.id}/unmatch">
    !${csrfField(session)}<label for="unmatch-${m.id}">Why undo</label
    ><input id="unmatch-${m.id}" name="reason" required maxlength="500" />
    <button type="submit" data-confirm="Undo match ${m.id}? Its entries’ money will no longer be received.">
      Unmatch
    </button>
  </form>`;

export const problemsTable = (file: string, problems: readonly ImportProblem[]) =>
  dataTable(
    problems,
    [
      { header: 'Where', text: (p) => p.row },
      { header: 'Field', text: (p) => p.field },
      { header: 'Problem', text: (p) => p.message },
    ],
    { caption: `Problems in ${file}: nothing was imported`, empty: '' },
  );
