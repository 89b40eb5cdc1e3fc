import { Type } from '@sinclair/typebox';
import type { App } from '../../route-context.js';
import { RequestHeaders } from '../../../contract/common.js';
import { errorResponses, successResponse } from '../../schemas/responses.js';

/** GET /ping (section 4.2): liveness only, no dependency is consulted. */
export default async function pingRoute(app: App) {
  app.get(
    '/ping',
    {
      schema: {
        operationId: 'ping',
        tags: ['operational'],
        summary: 'Liveness',
        description: 'Answers as long as the process runs; consults no dependency (section 4.2). Not an envelope.',
        headers: RequestHeaders,
        response: {
          200: successResponse(Type.Object({ status: Type.Literal('Ok') }), 'The process is alive.', { status: 'Ok' }),
          ...errorResponses('/ping'),
        },
      },
      config: { envelopeMethod: '/ping' },
    },
    async () => ({ status: 'Ok' as const }),
  );
}
