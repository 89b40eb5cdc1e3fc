import { Type } from '@sinclair/typebox';
import { getOwnDonation } from '../../../services/donations/get-donation.js';
import { sendItems, type App, type RouteDeps } from '../../route-context.js';
import { RequestHeaders, RequiredText } from '../../../contract/common.js';
import { DonationRecord } from '../../../contract/donation-record.js';
import { donationRecordExample } from '../../schemas/reversal-examples.js';
import { envelopeResponse, errorResponses } from '../../schemas/responses.js';
import { requirePrincipal } from '../../types.js';

/** GET /donations/{donationReferenceId} (extension): a donation as recorded, its reversals and settlement. */
export default async function getDonationRoute(app: App, { db }: RouteDeps) {
  app.get(
    '/donations/:donationReferenceId',
    {
      schema: {
        tags: ['donations'],
        operationId: 'getDonation',
        summary: 'Read a donation you recorded',
        description:
          'As recorded, with its net amount after reversals, the reversals, whether and how it was settled (the ' +
          'remittance entry, or the debit that collected it), and what the foundation owes back. Another partner’s ' +
          'donation answers 404 like an unknown one.',
        headers: RequestHeaders,
        params: Type.Object({ donationReferenceId: RequiredText(64) }),
        response: {
          200: envelopeResponse('/donations', DonationRecord, 'The donation.', donationRecordExample),
          ...errorResponses('/donations', 'NOT_FOUND'),
        },
      },
      config: { envelopeMethod: '/donations' },
    },
    async (request, reply) =>
      sendItems(
        request,
        reply,
        await getOwnDonation(db, requirePrincipal(request.principal), request.params.donationReferenceId),
      ),
  );
}
