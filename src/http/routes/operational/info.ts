import { Type } from '@sinclair/typebox';
import { applicationInfo } from '../../../version.js';
import type { App } from '../../route-context.js';
import { RequestHeaders, standardErrors } from '../../schemas/common.js';

const InfoDocument = Type.Object({ applicationInfo: Type.Object({ name: Type.String(), description: Type.String(), version: Type.String() }) });

/** GET /info (section 4.3): name, description and version from package.json. */
export default async function infoRoute(app: App) {
  app.get('/info', {
    schema: { tags: ['operational'], summary: 'Application metadata', headers: RequestHeaders, response: { 200: InfoDocument, ...standardErrors } },
    config: { envelopeMethod: '/info' },
  }, async () => ({ applicationInfo }));
}
