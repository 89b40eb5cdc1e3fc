import { RequestHeaders } from '../../../contract/common.js';
import { SandboxReceipts, SandboxReceiptsQuery } from '../../../contract/receipts.js';
import { sandboxReceipts } from '../../../services/receipts/sandbox-view.js';
import { sendItems, type App, type RouteDeps } from '../../route-context.js';
import { envelopeResponse, errorResponses } from '../../schemas/responses.js';
import { requirePrincipal } from '../../types.js';

const example = {
  donationReferenceId: 'DON-7Q2K9X4M1B',
  receipts: [
    {
      number: 'SAMPLE-2026-27-000001',
      status: 'in force',
      amount: '20.50',
      giftDate: '2026-11-21',
      issuedAt: '2026-11-22T01:00:00.000Z',
      issueReason: 'settled',
      replaces: null,
      voidedAt: null,
    },
  ],
  messages: [
    {
      kind: 'receipt',
      status: 'held',
      to: 'jo.citizen@example.com',
      subject: 'SAMPLE — NOT A TAX RECEIPT — Tax receipt SAMPLE-2026-27-000001 from Sample Sports Foundation Ltd',
      text: 'Thank you for your gift of $20.50 …',
      html: '<!doctype html>…',
      attachments: [
        {
          filename: 'receipt-SAMPLE-2026-27-000001.pdf',
          contentType: 'application/pdf',
          contentBase64: 'JVBERi0xLjMK',
        },
      ],
    },
  ],
};

/**
 * GET /sandbox/receipts (extension, sandbox only): the sample receipts of a donation and the e-mails, PDF attached,
 * that its donor would get (docs/receipts.md, "Sandbox"). Not served in production (404).
 */
export default async function getSandboxReceiptsRoute(app: App, { db, simulator }: RouteDeps) {
  if (!simulator) return;
  app.get(
    '/sandbox/receipts',
    {
      schema: {
        tags: ['sandbox'],
        operationId: 'getSandboxReceipts',
        summary: 'Read the receipts of a donation as its donor would get them (sandbox only)',
        description:
          'A settled donation of yours is receipted by the foundation: outside production with a sample receipt ' +
          'marked “SAMPLE — NOT A TAX RECEIPT”, never sent to the donor. This answers its receipts (void ones ' +
          'included) and every message about them — the receipt, a void notice after a reversal — with the subject, ' +
          'the text and HTML bodies and the PDF (base64). A donation not settled yet has none. Another partner’s ' +
          'donation answers 404 like an unknown one.',
        headers: RequestHeaders,
        querystring: SandboxReceiptsQuery,
        response: {
          200: envelopeResponse('/sandbox/receipts', SandboxReceipts, 'The donation’s receipts and messages.', example),
          ...errorResponses('/sandbox/receipts', 'VALIDATION', 'NOT_FOUND'),
        },
      },
      config: { envelopeMethod: '/sandbox/receipts' },
    },
    async (request, reply) =>
      sendItems(
        request,
        reply,
        await sandboxReceipts(db, requirePrincipal(request.principal), request.query.donationReferenceId),
      ),
  );
}
