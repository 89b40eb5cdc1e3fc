import swagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../../config.js';
import { API_VERSION, applicationInfo } from '../../version.js';

/**
 * The OpenAPI 3.1 document, generated from the same TypeBox schemas that validate requests and serialise
 * responses, so it cannot drift from what the service does.
 */
export const openApiPlugin = fp<{ config: Config }>(async (app: FastifyInstance, { config }) => {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Fundraiser External Source Integration API',
        version: API_VERSION,
        description: `${applicationInfo.description} Every request carries X-Correlation-ID (a fresh UUID) and the partner's client_id and client_secret headers.`,
      },
      servers: [{ url: `${config.PUBLIC_BASE_URL ?? ''}${config.BASE_PATH}` || '/', description: config.APP_ENV }],
      components: {
        securitySchemes: {
          clientId: { type: 'apiKey', in: 'header', name: 'client_id' },
          clientSecret: { type: 'apiKey', in: 'header', name: 'client_secret' },
          basic: { type: 'http', scheme: 'basic', description: 'Optional unless the deployment requires it; must name the same pair.' },
        },
      },
      security: [{ clientId: [], clientSecret: [] }],
    },
    refResolver: { buildLocalReference: (json, _base, _fragment, i) => String(json.$id ?? `def-${i}`) },
  });
}, { name: 'openapi' });
