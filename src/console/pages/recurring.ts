import { html } from 'ghtml';
import { PLAN_STATUSES } from '../../domain/recurring.js';
import { InvalidInputError } from '../../services/operators/operator-errors.js';
import type { PlanDetail, PlanRow } from '../../services/operators/recurring.js';
import { cancelPlanByOperator, listPlans, showPlan } from '../../services/operators/recurring.js';
import { field, operatorContext, sessionOf, type ConsolePage } from '../route-context.js';
import { changeRoute, type ShowPage } from '../views/change-route.js';
import { canChange, csrfField, detailList, link, readOnlyNote } from '../views/components.js';
import { partnerFilter } from '../views/filters.js';
import { listPage } from '../views/list-page.js';
import { aud } from '../views/format.js';
import { sendPage } from '../views/layout.js';
import { debitTable } from './debits.js';

const LIMIT = 200;

/**
 * Recurring donations of every partner (docs/recurring.md): the list by status and partner, one plan with its
 * debits, and a cancel by the foundation for admins, with a reason for the audit log and a confirmation. The same
 * services as `fundraiser-admin recurring`.
 */
export const recurringPages: ConsolePage = (app, deps) => {
  recurringList.route(app, deps);
  app.get<Id>('/recurring/:id', (request, reply) => planPage(deps, request, reply));
  changeRoute<Id['Params'], unknown>(app, deps, '/recurring/:id/cancel', {
    run: (request) => {
      if (field(request.body, 'confirm') !== 'yes')
        throw new InvalidInputError('Tick the confirmation to cancel: nothing was changed.');
      return cancelPlanByOperator(operatorContext(request, deps), request.params.id, field(request.body, 'reason'));
    },
    show: planPage,
    done: () => 'Canceled: no further debit. The partner is told (recurring_donation.canceled); the reason is audited.',
  });
};

type Id = { Params: { id: string } };

/** GET /recurring: plans newest first, by status and partner. */
const recurringList = listPage({
  path: '/recurring',
  title: 'Recurring donations',
  section: 'recurring',
  filters: [
    { name: 'status', label: 'Status', type: 'select', options: PLAN_STATUSES, any: 'Any status' },
    partnerFilter(),
  ],
  query: ({ ops, asked }) => listPlans(ops, { partner: asked('partner'), status: asked('status'), limit: LIMIT }),
  columns: [
    { header: 'Recurring donation', cell: (p) => link(`/console/recurring/${encodeURIComponent(p.id)}`, p.id) },
    { header: 'Created', text: (p) => p.createdAt },
    { header: 'Partner', text: (p) => p.partnerName },
    { header: 'Fundraiser', text: (p) => `${p.accountName} (${p.fundraiserId})` },
    { header: 'AUD', text: (p) => aud(p.amountCents), numeric: true },
    { header: 'Every', text: (p) => p.frequency },
    { header: 'Status', text: (p) => p.status },
    { header: 'Next debit', text: (p) => p.nextDueDate },
  ],
  caption: `Recurring donations, newest first (at most ${LIMIT})`,
  empty: 'No recurring donations match.',
});

/** One plan: its facts, the cancel form (admins, while it collects), and its debits. */
const planPage: ShowPage<Id> = async (deps, request, reply, { notice, status } = {}) => {
  const session = sessionOf(request);
  const detail = await showPlan(operatorContext(request, deps), request.params.id);
  const open = detail.plan.status === 'active' || detail.plan.status === 'past_due';
  const actions = !open ? '' : canChange(session) ? cancelForm(detail, session) : readOnlyNote('recurring donations');
  const body = html`!${planFacts(detail.plan)}!${actions}!${debitTable(detail.debits, session, {
    caption: 'Debits of this recurring donation, by due date',
    empty: 'No debits yet.',
  })}`;
  return sendPage(
    reply,
    status ?? 200,
    { title: `Recurring donation ${detail.plan.id}`, section: 'recurring', session, notice },
    body,
  );
};

const cancelForm = (detail: PlanDetail, session: ReturnType<typeof sessionOf>) =>
  html`<form class="card" method="post" action="/console/recurring/${encodeURIComponent(detail.plan.id)}/cancel">
    !${csrfField(session)}
    <p>
      <label for="reason">Reason (kept in the audit log; the partner reads “Canceled by the foundation”)</label
      ><input id="reason" name="reason" required maxlength="500" />
    </p>
    <p>
      <label class="check"
        ><input type="checkbox" name="confirm" value="yes" required /> No further debit will be collected</label
      >
    </p>
    <p>
      <button type="submit" class="danger" data-confirm="Cancel this recurring donation? It cannot be resumed.">
        Cancel this recurring donation
      </button>
    </p>
  </form>`;

const planFacts = (p: PlanRow) =>
  detailList([
    ['Recurring donation', p.id],
    ['Partner', `${p.partnerName} (${p.environment}${p.isLive ? ', live' : ''})`],
    ['Partner reference', p.partnerReference],
    ['Fundraiser', `${p.accountName} (${p.fundraiserId}, ${p.channel})`],
    ['Mandate', p.mandateId],
    ['Amount (AUD)', `${aud(p.amountCents)} ${p.frequency}`],
    ['Starts', p.startDate],
    ['Ends', [p.endDate && `on ${p.endDate}`, p.maxDebits && `after ${p.maxDebits} debits`].filter(Boolean)],
    ['Status', p.status],
    ['Next debit', p.nextDueDate],
    ['Failed in a row', p.failedInARow],
    ['Canceled', p.canceledAt ? `${p.canceledReason ?? ''} (${p.canceledAt.toISOString()})` : null],
    ['Created', p.createdAt],
  ]);
