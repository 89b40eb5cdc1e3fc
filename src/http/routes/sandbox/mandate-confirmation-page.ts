import { Type } from '@sinclair/typebox';
import { ApiError } from '../../../api-errors.js';
import type { App, RouteDeps } from '../../route-context.js';
import { Text } from '../../../contract/common.js';

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * The simulator's "hosted mandate confirmation" (the `url` of an accepted mandate). Public, as the provider's
 * hosted page is: a donor opens it in a browser, without API headers.
 */
export default async function mandateConfirmationPage(app: App, { simulator }: RouteDeps) {
  if (!simulator) return;
  app.get(
    '/sandbox/mandate-confirmations/:id',
    {
      schema: { hide: true, params: Type.Object({ id: Text(100) }) },
      config: { public: true },
    },
    async (request, reply) => {
      const intent = await simulator.retrieveSetupIntent(request.params.id);
      // Like every error of the API, in the envelope (the page itself is HTML for the donor's browser).
      if (!intent?.mandate) throw new ApiError('NOT_FOUND', 'No accepted mandate with this id');
      return reply
        .type('text/html; charset=utf-8')
        .send(
          `<!doctype html><title>Direct debit mandate</title><h1>BECS direct debit request (sandbox)</h1>` +
            `<p>Mandate <code>${escape(intent.id)}</code> was accepted at ${escape(intent.mandate.acceptedAt.toISOString())}.</p>` +
            `<p>This page is produced by the payment simulator; no real account is debited.</p>`,
        );
    },
  );
}
