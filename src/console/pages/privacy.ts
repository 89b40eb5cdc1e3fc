import type { FastifyReply, FastifyRequest } from 'fastify';
import { html } from 'ghtml';
import { retentionPolicy } from '../../config/privacy.js';
import type { ConsoleSession } from '../../services/console/sessions.js';
import { exportPersonalData } from '../../services/privacy/access-export.js';
import { approveErasure } from '../../services/privacy/erasure.js';
import { privacyStatus, type PrivacyStatus } from '../../services/privacy/status.js';
import {
  attempt,
  field,
  operatorContext,
  sessionOf,
  type ConsoleDeps,
  type ConsolePage,
  type Notice,
} from '../route-context.js';
import { canChange, csrfField, dataTable, readOnlyNote } from '../views/components.js';
import { sendPage } from '../views/layout.js';

/**
 * Privacy (docs/privacy.md): the de-identification's progress, the erasure requests waiting for a second operator
 * (an admin other than the requester approves here), and an access request's archive to download. The same services
 * as `fundraiser-admin privacy`.
 */
export const privacyPages: ConsolePage = (app, deps) => {
  app.get('/privacy', (request, reply) => privacyPage(deps, request, reply, null, 200));
  app.post<{ Params: { id: string } }>('/privacy/erasures/:id/approve', async (request, reply) => {
    const ctx = operatorContext(request, deps);
    const outcome = await attempt(
      () => approveErasure(ctx, request.params.id, { timeZone: deps.config.FOUNDATION_TIME_ZONE }),
      (notice, status) => privacyPage(deps, request, reply, notice, status),
    );
    if ('shown' in outcome) return outcome.shown;
    const kept = outcome.done.kept.length;
    const text = `Erasure ${outcome.done.id} is done${kept ? `; ${kept} record(s) kept by law (see the audit log)` : ''}.`;
    return privacyPage(deps, request, reply, { kind: 'ok', text }, 200);
  });
  app.post('/privacy/export', async (request, reply) => {
    const outcome = await attempt(
      () => exportPersonalData(operatorContext(request, deps), { email: field(request.body, 'email') }),
      (notice, status) => privacyPage(deps, request, reply, notice, status),
    );
    if ('shown' in outcome) return outcome.shown;
    return reply
      .type('application/zip')
      .header('content-disposition', 'attachment; filename="personal-information.zip"')
      .header('cache-control', 'no-store')
      .send(Buffer.from(outcome.done.zip));
  });
};

async function privacyPage(
  deps: ConsoleDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  notice: Notice,
  status: number,
) {
  const session = sessionOf(request);
  const state = await privacyStatus(operatorContext(request, deps), retentionPolicy(deps.config));
  const body = html`<p>
      ${
        `Donations past DONOR_DATA_RETENTION_YEARS (${deps.config.DONOR_DATA_RETENTION_YEARS}) still identified: ` +
        `${state.donationsLeft} (held by a receipt inside its five years, or not reached yet).`
      }
    </p>
    !${progressTable(state)}!${canChange(session) ? exportForm(session) : readOnlyNote('personal information')}
    !${pendingTable(state, session)}`;
  return sendPage(reply, status, { title: 'Privacy', section: 'privacy', session, notice }, body);
}

const progressTable = (state: PrivacyStatus) =>
  dataTable(
    state.totals,
    [
      { header: 'Kind', text: (t) => t.kind },
      { header: 'De-identified', text: (t) => t.rows, numeric: true },
      { header: 'Last changed', text: (t) => (t.lastRunAt ? new Date(t.lastRunAt).toISOString() : '') },
    ],
    { caption: 'De-identified so far', empty: 'Nothing has outlived its retention yet.' },
  );

const exportForm = (session: ConsoleSession) =>
  html`<form class="filters" method="post" action="/console/privacy/export">
    !${csrfField(session)}<label for="email">Access request: everything held about</label
    ><input id="email" name="email" type="email" required maxlength="320" />
    <button type="submit">Download the archive</button>
  </form>`;

const pendingTable = (state: PrivacyStatus, session: ConsoleSession) =>
  dataTable(
    state.pending,
    [
      { header: 'Erasure', text: (p) => p.id },
      { header: 'Asked by', text: (p) => p.requestedBy },
      { header: 'Asked at', text: (p) => p.requestedAt.toISOString() },
      {
        header: '',
        cell: (p) =>
          canChange(session) && p.requestedBy !== session.email
            ? html`<form class="inline" method="post" action="/console/privacy/erasures/${p.id}/approve">
                !${csrfField(session)}<button type="submit" data-confirm="Erase now what no law keeps?">Approve</button>
              </form>`
            : '',
      },
    ],
    { caption: 'Erasure requests waiting for a second operator', empty: 'No erasure request waits.' },
  );
