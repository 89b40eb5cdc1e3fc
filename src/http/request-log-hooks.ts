import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Counter, type Registry } from 'prom-client';
import type { Config } from '../config/index.js';
import type { Database } from '../infrastructure/db/connect.js';
import { RequestLogWriter } from '../services/request-log/writer.js';
import { routeOf } from './route-of.js';

/** A client_id header longer than any we issue names no credential: not looked up. */
const CLIENT_ID_MAX = 200;

/**
 * The partner request log's writer for one app (null when PARTNER_REQUEST_LOG is off), with its drop counter in the
 * app's registry, closed (its buffer written) when the app closes, before the database.
 */
export function requestLogWriter(
  app: FastifyInstance,
  { config, database }: { config: Config; database: Database },
  registry: Registry,
): RequestLogWriter | null {
  if (!config.PARTNER_REQUEST_LOG) return null;
  const dropped = new Counter({
    name: 'partner_request_log_dropped_total',
    help: 'Partner requests left out of the request log: reason full (the buffer) or write-failed (the database).',
    labelNames: ['reason'] as const,
    registers: [registry],
  });
  const writer = new RequestLogWriter(database.db, {
    capacity: config.PARTNER_REQUEST_LOG_BUFFER,
    bodyChars: config.PARTNER_REQUEST_LOG_BODY_BYTES,
    successfulReads: config.PARTNER_REQUEST_LOG_SUCCESSFUL_READS,
    onDropped: (reason, count) => dropped.inc({ reason }, count),
    warn: (fields, message) => app.log.warn(fields, message),
  });
  app.addHook('onClose', () => writer.close());
  return writer;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The payload sent, kept for the request log (text answers only). */
    sentPayload?: string;
  }
}

/**
 * Captures every request of the partner API's routes (registered in their scope, so the console, the probes and
 * the documents are never logged) after its answer is sent: references to the parsed body and the payload, no copy
 * and no masking here (docs/decisions/0088-request-log-masked-and-buffered.md).
 */
export function captureRequests(scope: FastifyInstance, writer: RequestLogWriter): void {
  scope.addHook('onSend', (request, reply, payload, done) => {
    if (typeof payload === 'string' && writer.itemises(request.method, reply.statusCode)) request.sentPayload = payload;
    done(null, payload);
  });
  scope.addHook('onResponse', (request, reply, done) => {
    const route = routeOf(request);
    if (!route.config?.public) {
      const principal = request.principal;
      const clientId = principal?.clientId ?? clientIdHeader(request);
      if (principal || clientId) {
        const latencyMs = reply.elapsedTime;
        const itemised = writer.itemises(request.method, reply.statusCode);
        writer.record({
          partnerId: principal?.partnerId ?? null,
          clientId,
          environment: principal?.environment ?? null,
          at: new Date(Date.now() - latencyMs),
          method: request.method,
          route: route.url ?? '(no route)',
          status: reply.statusCode,
          latencyUs: Math.round(latencyMs * 1000),
          correlationId: request.correlationId,
          // A request only counted keeps no body: nothing of it is written.
          requestBody: itemised ? request.body : undefined,
          responsePayload: itemised ? (request.sentPayload ?? null) : null,
        });
      }
    }
    done();
  });
}

function clientIdHeader(request: FastifyRequest): string | null {
  const value = request.headers.client_id;
  const id = Array.isArray(value) ? value[0] : value;
  return id && id.length <= CLIENT_ID_MAX ? id : null;
}
