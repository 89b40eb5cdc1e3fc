import { Type } from '@sinclair/typebox';
import { OUTCOMES } from '../../../domain/reconciliation.js';
import { getRemittanceReport } from '../../../services/reconciliation/remittance-report.js';
import { sendItems, type App, type RouteDeps } from '../../route-context.js';
import { ErrorEnvelope, RequestHeaders, standardErrors, SuccessEnvelope } from '../../schemas/common.js';
import { requirePrincipal } from '../../types.js';

const Outcome = Type.Union([Type.Union(OUTCOMES.map((o) => Type.Literal(o))), Type.Null()], {
  description: 'Null until the batch is reconciled. See the reconciliation rules in the README.',
});

const EntryReport = Type.Object({
  index: Type.Integer({ description: 'Index of the entry in the posted `remittances` array.' }),
  bankReferenceId: Type.String(),
  amount: Type.Number({ description: 'AUD.' }),
  donationIds: Type.Array(Type.String()),
  outcome: Outcome,
  detail: Type.Union([Type.String(), Type.Null()], { description: 'Why, in words: which donations, which amounts.' }),
});

const BatchReport = Type.Object({
  batchId: Type.String(),
  status: Type.Union(['accepted', 'processing', 'completed', 'completed_with_exceptions'].map((s) => Type.Literal(s))),
  channel: Type.String(),
  fundraiserId: Type.String(),
  totalAmount: Type.Number({ description: 'Sum of the entries, AUD.' }),
  receivedAt: Type.String({ format: 'date-time' }),
  startedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  completedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  counts: Type.Object({
    entries: Type.Integer(),
    pending: Type.Integer({ description: 'Entries not reconciled yet.' }),
    matched: Type.Integer(),
    exceptions: Type.Integer({ description: 'Entries with any outcome other than matched.' }),
    byOutcome: Type.Object(Object.fromEntries(OUTCOMES.map((o) => [o, Type.Integer()]))),
  }),
  entries: Type.Array(EntryReport),
});

/** GET /remittances/{batchId} (added to the contract): the out-of-band report of a batch, for the partner that posted it. */
export default async function getRemittanceRoute(app: App, { db }: RouteDeps) {
  app.get('/remittances/:batchId', {
    schema: {
      tags: ['remittances'],
      summary: 'Read the reconciliation report of a remittance batch',
      description: 'Status (accepted, processing, completed, completed_with_exceptions), counts and the outcome of every entry. ' +
        'Only the partner that posted the batch can read it; any other id answers 404 FUNDRAISER:NOT_FOUND.',
      headers: RequestHeaders,
      params: Type.Object({ batchId: Type.String({ format: 'uuid', description: 'batchId returned by POST /remittances.' }) }),
      response: { 200: SuccessEnvelope('/remittance', BatchReport), ...standardErrors, 404: Type.Ref(ErrorEnvelope) },
    },
    config: { envelopeMethod: '/remittance' },
  }, async (request, reply) => sendItems(request, reply, await getRemittanceReport(db, requirePrincipal(request.principal), request.params.batchId)));
}
