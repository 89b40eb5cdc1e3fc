import { html } from 'ghtml';
import type { ConsoleSession } from '../../services/console/sessions.js';
import type { ShownDetails } from '../../services/grants/bank-details/show.js';
import type { ClubContact } from '../../services/grants/club-contacts.js';
import { csrfField, dataTable, detailList } from './components.js';

/** How a club's bank details, their versions and its contacts are shown, and the admins' forms for them. */

const at = (d: Date | null) => (d ? d.toISOString().replace(/\.\d{3}Z$/, 'Z') : null);

/** "payable from 2026-12-08T00:00:00Z", "payable now", "not payable (rejected)". */
export function payable(d: ShownDetails): string {
  if (!d.payableFrom || d.status === 'rejected' || d.status === 'superseded') return `not payable (${d.status})`;
  if (d.status === 'pending') return `payable from ${at(d.payableFrom)} once verified`;
  if (d.payableNow) return d.holdWaived ? 'payable now (hold waived)' : `payable now (since ${at(d.payableFrom)})`;
  return `payable from ${at(d.payableFrom)} (in its hold period)`;
}

export const bsbText = (d: ShownDetails) => (d.branch ? `${d.bsb} (${d.branch})` : d.bsb);

export function detailsCard(title: string, d: ShownDetails | null, none: string): string {
  if (!d)
    return html`<section class="card">
      <h2>${title}</h2>
      <p class="empty">${none}</p>
    </section>`;
  return html`<section class="card">
    <h2>${title}</h2>
    !${detailList([
      ['BSB', bsbText(d)],
      ['Account number', d.accountNumber],
      ['Account name', d.accountName],
      ['Entered', `${at(d.enteredAt)} by ${d.enteredBy} (${d.source})`],
      ['Verified', d.verifiedAt ? `${at(d.verifiedAt)} by ${d.verifiedBy}: ${d.confirmation}` : null],
      ['Payable', payable(d)],
    ])}
  </section>`;
}

export const historyTable = (history: ShownDetails[]) =>
  dataTable(
    history,
    [
      { header: 'Status', text: (d) => d.status },
      { header: 'BSB', text: bsbText },
      { header: 'Account', text: (d) => d.accountNumber },
      { header: 'Name', text: (d) => d.accountName },
      { header: 'Entered', text: (d) => `${at(d.enteredAt)} by ${d.enteredBy} (${d.source})` },
      {
        header: 'Decided',
        text: (d) =>
          d.verifiedAt
            ? `verified ${at(d.verifiedAt)} by ${d.verifiedBy}: ${d.confirmation}`
            : d.rejectedAt
              ? `rejected ${at(d.rejectedAt)} by ${d.rejectedBy}: ${d.rejectReason}`
              : null,
      },
      { header: 'Payable', text: payable },
    ],
    { caption: 'Every version, newest first', empty: 'No bank details entered yet.' },
  );

export const contactsTable = (contacts: ClubContact[], removeForm: ((c: ClubContact) => string) | null) =>
  dataTable(
    contacts,
    [
      { header: 'Role', text: (c) => c.role },
      { header: 'Name', text: (c) => c.name },
      { header: 'E-mail', text: (c) => c.email },
      ...(removeForm ? [{ header: '', cell: removeForm }] : []),
    ],
    {
      caption: 'Contacts (all are told of a bank change)',
      empty: 'No contacts: nobody would be told of a bank change.',
    },
  );

const input = (id: string, label: string, extra: string) =>
  html`<p><label for="${id}">${label}</label><input id="${id}" name="${id}" required !${extra} /></p>`;

export const setDetailsForm = (session: ConsoleSession, action: string) =>
  html`<form class="card" method="post" action="${action}">
    <h2>Enter new bank details</h2>
    !${csrfField(session)}!${input('bsb', 'BSB (NNN-NNN)', 'maxlength="7" inputmode="numeric"')}
    !${input('accountNumber', 'Account number (5 to 9 digits)', 'maxlength="12" inputmode="numeric" autocomplete="off"')}
    !${input('accountName', 'Account name (as the bank holds it, 32 characters at most)', 'maxlength="32"')}
    <p><button type="submit">Enter as a pending change</button></p>
    <p class="hint">
      Another operator must verify the change after calling the club on a number already on file. The club's contacts
      are told by e-mail.
    </p>
  </form>`;

export const addContactForm = (session: ConsoleSession, action: string) =>
  html`<form class="card" method="post" action="${action}">
    <h2>Add a contact</h2>
    !${csrfField(session)}
    <p>
      <label for="role">Role</label
      ><select id="role" name="role" required>
        <option>finance</option>
        <option>primary</option>
      </select>
    </p>
    !${input('name', 'Name', 'maxlength="200"')}!${input('email', 'E-mail', 'type="email" maxlength="254"')}
    <p><button type="submit">Add the contact</button></p>
  </form>`;

export const gstForm = (session: ConsoleSession, action: string, registered: boolean) =>
  html`<form class="inline" method="post" action="${action}">
    !${csrfField(session)}<input type="hidden" name="registered" value="${registered ? 'no' : 'yes'}" />
    <button type="submit">${registered ? 'Mark not registered for GST' : 'Mark registered for GST'}</button>
  </form>`;

export const removeContactForm = (session: ConsoleSession, action: string, c: ClubContact) =>
  html`<form class="inline" method="post" action="${action}">
    !${csrfField(session)}<button type="submit" data-confirm="Remove ${c.name} (${c.role})?">Remove</button>
  </form>`;
