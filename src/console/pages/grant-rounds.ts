import type { FastifyReply, FastifyRequest } from 'fastify';
import { abaPayer } from '../../config/grants.js';
import { downloadAba } from '../../services/grants/rounds/aba-download.js';
import { approveRound } from '../../services/grants/rounds/approve.js';
import { cancelRound } from '../../services/grants/rounds/cancel.js';
import { listGrantRounds } from '../../services/grants/rounds/list.js';
import { markRoundPaid } from '../../services/grants/rounds/paid.js';
import { reviewRound, showRound } from '../../services/grants/rounds/review.js';
import {
  attempt,
  field,
  operatorContext,
  sessionOf,
  type ConsoleDeps,
  type ConsolePage,
  type Notice,
} from '../route-context.js';
import { dataTable, link } from '../views/components.js';
import { aud } from '../views/format.js';
import { sendPage } from '../views/layout.js';
import { roundBody } from './grant-round-view.js';

type RoundRequest = FastifyRequest<{ Params: { number: string } }>;

const DONE: Record<string, string> = {
  review: 'reviewed',
  approve: 'approved, its ABA file made',
  cancel: 'cancelled',
  paid: 'marked paid; its advices are on their way',
};

/**
 * Grant rounds (docs/grants.md): the list, and one round with its totals per club, the held list and what changed
 * since the last round; admins review, approve (never the one who drafted or reviewed it), cancel a draft, mark an
 * approved round paid and download its ABA file. The same services as `fundraiser-admin grants`.
 */
export const grantRoundsPages: ConsolePage = (app, deps) => {
  app.get('/grants/rounds', async (request, reply) => {
    const rounds = await listGrantRounds(operatorContext(request, deps), 100);
    const body = dataTable(
      rounds,
      [
        { header: 'Round', cell: (r) => link(`/console/grants/rounds/${r.number}`, r.number) },
        { header: 'Status', text: (r) => r.status },
        { header: 'Scheduled', text: (r) => r.scheduledOn },
        { header: 'Total (AUD)', text: (r) => aud(Number(r.totalCents)), numeric: true },
        { header: 'Grants', text: (r) => r.grantCount, numeric: true },
        { header: 'Held', text: (r) => r.heldCount, numeric: true },
        { header: 'Drafted by', text: (r) => r.draftedBy },
        { header: 'Approved by', text: (r) => r.approvedBy },
        { header: 'Paid', text: (r) => r.paidAt },
      ],
      { caption: 'Grant rounds, newest first', empty: 'No round was drafted yet.' },
    );
    return sendPage(reply, 200, { title: 'Grant rounds', section: 'grants', session: sessionOf(request) }, body);
  });
  app.get('/grants/rounds/:number', (request: RoundRequest, reply) => roundPage(deps, request, reply, null, 200));
  app.get('/grants/rounds/:number/aba', async (request: RoundRequest, reply) => {
    const file = await downloadAba(operatorContext(request, deps), numberOf(request));
    return reply
      .type('application/octet-stream')
      .header('content-disposition', `attachment; filename="${file.fileName}"`)
      .send(file.bytes);
  });
  const zone = deps.config.FOUNDATION_TIME_ZONE;
  const decisions: Record<string, (request: RoundRequest) => Promise<{ number: number; status: string }>> = {
    review: (r) => reviewRound(operatorContext(r, deps), numberOf(r)),
    approve: (r) =>
      approveRound(operatorContext(r, deps), numberOf(r), { payer: abaPayer(deps.config), timeZone: zone }),
    cancel: (r) => cancelRound(operatorContext(r, deps), numberOf(r), field(r.body, 'reason')),
    paid: (r) =>
      markRoundPaid(operatorContext(r, deps), numberOf(r), {
        acquittalDueDays: deps.config.ACQUITTAL_DUE_DAYS,
        timeZone: zone,
      }),
  };
  for (const [what, decide] of Object.entries(decisions))
    app.post(`/grants/rounds/:number/${what}`, async (request: RoundRequest, reply) => {
      const outcome = await attempt(
        () => decide(request),
        (notice, status) => roundPage(deps, request, reply, notice, status),
      );
      if ('shown' in outcome) return outcome.shown;
      const text = `Round ${outcome.done.number}: ${DONE[what]}.`;
      return roundPage(deps, request, reply, { kind: 'ok', text }, 200);
    });
};

const numberOf = (request: RoundRequest) =>
  /^\d{1,9}$/.test(request.params.number) ? Number(request.params.number) : 0;

async function roundPage(
  deps: ConsoleDeps,
  request: RoundRequest,
  reply: FastifyReply,
  notice: Notice,
  status: number,
) {
  const session = sessionOf(request);
  const review = await showRound(operatorContext(request, deps), numberOf(request));
  const title = `Grant round ${review.round.number}`;
  return sendPage(reply, status, { title, section: 'grants', session, notice }, roundBody(review, session));
}
