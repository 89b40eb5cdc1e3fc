import type { FastifyReply, FastifyRequest } from 'fastify';
import { html } from 'ghtml';
import type { ConsoleSession } from '../../services/console/sessions.js';
import { rejectBankDetails, verifyBankDetails } from '../../services/grants/bank-details/decide.js';
import { bankDetailsSettings } from '../../services/grants/bank-details/settings.js';
import { listPendingChanges, type PendingChange } from '../../services/grants/bank-details/show.js';
import { attempt, field, operatorContext, type ConsolePage, type Notice } from '../route-context.js';
import { bsbText, payable } from '../views/club-bank.js';
import { canChange, csrfField, link, readOnlyNote } from '../views/components.js';
import { listPage } from '../views/list-page.js';

type Member = { Params: { member: string } };

const LIMIT = 500;

/**
 * Pending bank changes (docs/grants.md, "Bank details"): every club's change waiting for a second operator, oldest
 * first. An admin who did not enter a change verifies it (saying whom they called on which number on file, and
 * whether it may be paid before the hold ends) or rejects it with a reason; a viewer sees the list, numbers masked.
 */
/** The list, described with the console's list-page kit: no filters, the forms in a column for admins. */
const changesList = listPage<PendingChange>({
  path: '/grants/bank-changes',
  title: 'Pending bank changes',
  section: 'grant-bank',
  filters: [],
  query: ({ ops, session, deps }) =>
    listPendingChanges(ops, bankDetailsSettings(deps.config), {
      unmask: canChange(session),
      via: 'console',
      limit: LIMIT,
    }),
  above: ({ session }) =>
    canChange(session)
      ? html`<p class="hint">
          Call the club on a number already on file (never one from the request that changed the details) before
          verifying. You cannot verify or reject a change you entered.
        </p>`
      : readOnlyNote('bank changes'),
  columns: ({ session }) => [
    {
      header: 'Club',
      cell: (c) =>
        link(`/console/accounts/${encodeURIComponent(c.memberNumber)}/bank`, `${c.club} (${c.memberNumber})`),
    },
    { header: 'New details', text: (c) => `${bsbText(c.pending)} ${c.pending.accountNumber} ${c.pending.accountName}` },
    { header: 'Replaces', text: (c) => (c.current ? `${bsbText(c.current)} ${c.current.accountNumber}` : 'nothing') },
    {
      header: 'Entered',
      text: (c) => `${c.pending.enteredAt.toISOString().slice(0, 16)}Z by ${c.pending.enteredBy} (${c.pending.source})`,
    },
    { header: 'Payable', text: (c) => payable(c.pending) },
    ...(canChange(session) ? [{ header: 'Decide', cell: (c: PendingChange) => decideForms(c, session) }] : []),
  ],
  caption: 'Bank changes waiting for a second operator, oldest first',
  empty: 'No bank change is waiting.',
});

/**
 * Pending bank changes (docs/grants.md, "Bank details"): every club's change waiting for a second operator, oldest
 * first. An admin who did not enter a change verifies it (saying whom they called on which number on file, and
 * whether it may be paid before the hold ends) or rejects it with a reason; a viewer sees the list, numbers masked.
 */
export const grantBankChangesPages: ConsolePage = (app, deps) => {
  changesList.route(app, deps);
  const rerender = (request: FastifyRequest, reply: FastifyReply) => (notice: Notice, status: number) =>
    changesList.show(deps, request, reply, { notice, status });

  app.post<Member>('/grants/bank-changes/:member/verify', async (request, reply) => {
    const outcome = await attempt(
      () =>
        verifyBankDetails(operatorContext(request, deps), bankDetailsSettings(deps.config), request.params.member, {
          confirmation: field(request.body, 'confirmation'),
          waiveHold: field(request.body, 'waiveHold') === 'yes',
        }),
      rerender(request, reply),
    );
    if ('shown' in outcome) return outcome.shown;
    const { club, details } = outcome.done;
    const text = `The bank details of ${club} are verified: ${payable(details)}.`;
    return changesList.show(deps, request, reply, { notice: { kind: 'ok', text } });
  });

  app.post<Member>('/grants/bank-changes/:member/reject', async (request, reply) => {
    const outcome = await attempt(
      () =>
        rejectBankDetails(
          operatorContext(request, deps),
          bankDetailsSettings(deps.config),
          request.params.member,
          field(request.body, 'reason'),
        ),
      rerender(request, reply),
    );
    if ('shown' in outcome) return outcome.shown;
    const text = `The pending bank change of ${outcome.done.club} is rejected; its current details are unchanged.`;
    return changesList.show(deps, request, reply, { notice: { kind: 'ok', text } });
  });
};

function decideForms(c: PendingChange, session: ConsoleSession): string {
  const base = `/console/grants/bank-changes/${encodeURIComponent(c.memberNumber)}`;
  const id = c.pending.id;
  return html`<form class="inline" method="post" action="${base}/verify">
      !${csrfField(session)}<label for="confirmation-${id}">Whom you called, on which number on file</label
      ><input id="confirmation-${id}" name="confirmation" required maxlength="500" />
      <label><input type="checkbox" name="waiveHold" value="yes" /> Approved to be paid before the hold period</label>
      <button type="submit">Verify</button>
    </form>
    <form class="inline" method="post" action="${base}/reject">
      !${csrfField(session)}<label for="reason-${id}">Why reject</label
      ><input id="reason-${id}" name="reason" required maxlength="500" />
      <button type="submit">Reject</button>
    </form>`;
}
