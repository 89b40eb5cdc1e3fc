import { Type } from '@sinclair/typebox';
import { applicationInfo } from '../../../version.js';
import type { App } from '../../route-context.js';
import { RequestHeaders } from '../../../contract/common.js';
import { errorResponses, successResponse } from '../../schemas/responses.js';

const InfoDocument = Type.Object({
  applicationInfo: Type.Object({ name: Type.String(), description: Type.String(), version: Type.String() }),
});

/** GET /info (section 4.3): name, description and version from package.json. */
export default async function infoRoute(app: App) {
  app.get(
    '/info',
    {
      schema: {
        operationId: 'getInfo',
        tags: ['operational'],
        summary: 'Application metadata',
        description: 'Name, description and version of the running service (section 4.3). Not an envelope.',
        headers: RequestHeaders,
        response: {
          200: successResponse(InfoDocument, 'Application metadata.', { applicationInfo }),
          ...errorResponses('/info'),
        },
      },
      config: { envelopeMethod: '/info' },
    },
    async () => ({ applicationInfo }),
  );
}
