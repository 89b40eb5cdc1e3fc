import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { routeOf } from '../route-of.js';
import { ApiError } from '../../api-errors.js';
import { customFormats } from '../schemas/formats.js';

/**
 * First check of every request (docs/decisions/0004-correlation-id-required-on-every-request.md): X-Correlation-ID
 * must be a UUID. It is echoed in the envelope and as a response header; when it is missing or malformed, a
 * generated one takes its place in the error.
 */
export const correlationIdPlugin = fp(
  async (app: FastifyInstance) => {
    app.decorateRequest('correlationId', '');
    app.addHook('onRequest', (request, reply, done) => {
      const header = request.headers['x-correlation-id'];
      const value = Array.isArray(header) ? header[0] : header;
      // Fastify's request id is this header when it is a UUID (app.ts, genReqId): checked there already.
      if (value && (value === request.id || customFormats.uuid(value))) {
        request.correlationId = value;
        reply.header('x-correlation-id', value);
        return done();
      }
      request.correlationId = randomUUID();
      // Public pages (the OpenAPI document, the sandbox's hosted mandate page) are opened by browsers and tools.
      if (routeOf(request).config?.public) return done();
      done(
        new ApiError(
          'VALIDATION',
          value ? 'header X-Correlation-ID: must be a UUID' : 'header X-Correlation-ID: is required',
        ),
      );
    });
  },
  { name: 'correlation-id' },
);
