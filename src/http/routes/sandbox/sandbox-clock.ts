import { Type } from '@sinclair/typebox';
import { advanceSandboxClock, readSandboxClock } from '../../../services/recurring/sandbox-clock.js';
import { sendItems, type App, type RouteDeps } from '../../route-context.js';
import { RequestHeaders } from '../../../contract/common.js';
import { SandboxClockAdvance } from '../../../contract/recurring.js';
import { BODY_ERRORS, envelopeResponse, errorResponses } from '../../schemas/responses.js';
import { requirePrincipal } from '../../types.js';

const Clock = Type.Object({
  now: Type.String({ format: 'date-time', description: 'Your sandbox time.' }),
  today: Type.String({ format: 'date', description: 'Its date in the foundation’s time zone.' }),
  aheadBySeconds: Type.Integer({ description: 'How far your clock runs ahead of the real one.' }),
});
const Advanced = Type.Composite([
  Clock,
  Type.Object({
    debitsCreated: Type.Integer(),
    triesSubmitted: Type.Integer(),
    paymentsSettled: Type.Integer(),
  }),
]);
const clockExample = { now: '2027-01-01T00:00:00.000Z', today: '2027-01-01', aheadBySeconds: 2678400 };

/**
 * GET /sandbox/clock and POST /sandbox/clock/advance (extension, sandbox only): each partner's own clock, which
 * makes a year of debits a minute of testing. Not served in production (404).
 */
export default async function sandboxClockRoutes(app: App, { recurring, simulator }: RouteDeps) {
  if (!simulator) return;
  app.get(
    '/sandbox/clock',
    {
      schema: {
        tags: ['sandbox'],
        operationId: 'getSandboxClock',
        summary: 'Read your sandbox clock (sandbox only)',
        description: 'The time your plans, debits and the simulator’s settlements follow in the sandbox.',
        headers: RequestHeaders,
        response: {
          200: envelopeResponse('/sandbox/clock', Clock, 'Your sandbox time.', clockExample),
          ...errorResponses('/sandbox/clock'),
        },
      },
      config: { envelopeMethod: '/sandbox/clock' },
    },
    async (request, reply) =>
      sendItems(request, reply, await readSandboxClock(recurring, requirePrincipal(request.principal).partnerId)),
  );
  app.post(
    '/sandbox/clock/advance',
    {
      schema: {
        tags: ['sandbox'],
        operationId: 'advanceSandboxClock',
        summary: 'Move your sandbox clock forward (sandbox only)',
        description:
          'Moves your clock forward by an ISO 8601 duration (at most 5 years) and makes everything due in that ' +
          'span happen in order: your plans’ debits are created and submitted on their dates, the simulator settles ' +
          'each two days later as the payer’s test account says (docs/recurring.md), failed debits are retried. ' +
          'Webhooks are sent as in production. Other partners’ clocks are not touched. Each call moves the clock ' +
          'again: it takes no Idempotency-Key.',
        headers: RequestHeaders,
        body: SandboxClockAdvance,
        response: {
          200: envelopeResponse('/sandbox/clock', Advanced, 'The new time, and what happened on the way.', {
            ...clockExample,
            debitsCreated: 1,
            triesSubmitted: 1,
            paymentsSettled: 1,
          }),
          ...errorResponses('/sandbox/clock', ...BODY_ERRORS),
        },
      },
      config: { envelopeMethod: '/sandbox/clock' },
    },
    async (request, reply) =>
      sendItems(
        request,
        reply,
        await advanceSandboxClock(recurring, requirePrincipal(request.principal).partnerId, request.body.duration),
      ),
  );
}
