import { Type } from '@sinclair/typebox';
import { confirmSandboxMandate } from '../../../services/sandbox-mandates.js';
import { sendItems, type App, type RouteDeps } from '../../route-context.js';
import { RequestHeaders, RequiredText, Text } from '../../../contract/common.js';
import { MandateRecord, succeededMandateExample } from '../../../contract/mandate.js';
import { BODY_ERRORS, envelopeResponse, errorResponses } from '../../schemas/responses.js';
import { requirePrincipal } from '../../types.js';
import { SIMULATOR_TEST_ACCOUNTS } from '../../../infrastructure/payments/simulator.js';

/** POST /sandbox/mandates/{id}/confirm: walks a mandate to `succeeded` (or a failure) outside production. */
export default async function confirmMandateRoute(app: App, { db, simulator }: RouteDeps) {
  if (!simulator) return;
  app.post(
    '/sandbox/mandates/:id/confirm',
    {
      schema: {
        operationId: 'confirmSandboxMandate',
        tags: ['sandbox'],
        summary: 'Confirm a mandate with test bank details (sandbox only)',
        description:
          `Stands in for the payment provider's client-side confirmation. BSB ${SIMULATOR_TEST_ACCOUNTS.bsb}; account ` +
          `${SIMULATOR_TEST_ACCOUNTS.succeeds} succeeds, ${SIMULATOR_TEST_ACCOUNTS.succeedsAfterProcessing} succeeds after processing, ` +
          `${Object.keys(SIMULATOR_TEST_ACCOUNTS.fails).join(', ')} fail and leave the mandate at requires_payment_method.`,
        headers: RequestHeaders,
        params: Type.Object({ id: RequiredText(100) }),
        body: Type.Object({
          bsb: Type.String({ pattern: '^\\d{3}-?\\d{3}$', examples: ['000-000'] }),
          accountNumber: Type.String({ pattern: '^\\d{5,9}$', examples: ['000123456'] }),
          accountHolderName: Type.Optional(Text(200)),
        }),
        response: {
          200: envelopeResponse(
            '/mandates',
            Type.Composite([MandateRecord, Type.Object({ lastSetupError: Type.Optional(Type.String()) })]),
            'The mandate after confirmation (a failed confirmation leaves it at requires_payment_method, with lastSetupError).',
            succeededMandateExample,
          ),
          ...errorResponses('/mandates', ...BODY_ERRORS, 'NOT_FOUND'),
        },
      },
      config: { envelopeMethod: '/mandates' },
    },
    async (request, reply) =>
      sendItems(
        request,
        reply,
        await confirmSandboxMandate(
          db,
          simulator,
          requirePrincipal(request.principal),
          request.params.id,
          request.body,
        ),
      ),
  );
}
