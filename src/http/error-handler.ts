import { randomUUID } from 'node:crypto';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isDatabaseUnavailable } from '../infrastructure/db/errors.js';
import { errorEnvelope } from './envelope.js';
import { ApiError, ErrorCatalogue, type ErrorKind } from '../errors.js';
import { describeValidationErrors } from './validation-cause.js';

/** Seconds a client should wait before retrying when we are unavailable. */
const UNAVAILABLE_RETRY_AFTER_SECONDS = '5';

/** Fastify's own errors, mapped onto the catalogue. */
const FASTIFY_CODES: Record<string, { kind: ErrorKind; cause?: string }> = {
  FST_ERR_CTP_BODY_TOO_LARGE: { kind: 'PAYLOAD_TOO_LARGE' },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { kind: 'UNSUPPORTED_MEDIA_TYPE', cause: 'Content-Type must be application/json' },
  FST_ERR_CTP_EMPTY_JSON_BODY: { kind: 'VALIDATION', cause: '(body): a JSON body is required' },
  FST_ERR_CTP_INVALID_JSON_BODY: { kind: 'VALIDATION', cause: '(body): malformed JSON' },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { kind: 'VALIDATION', cause: 'Content-Length does not match the body' },
};

/** The method value of the envelope: the route's own (section 2.1), or `/` for anything unhandled. */
export function envelopeMethod(request: FastifyRequest): string {
  return request.routeOptions.config?.envelopeMethod ?? '/';
}

export function sendError(request: FastifyRequest, reply: FastifyReply, error: ApiError) {
  const correlationId = request.correlationId ?? randomUUID();
  for (const [name, value] of Object.entries(error.headers)) reply.header(name, value);
  reply.header('x-correlation-id', correlationId);
  return reply
    .code(error.status)
    .type('application/json; charset=utf-8')
    .send(errorEnvelope(correlationId, envelopeMethod(request), error.code, error.message, error.cause));
}

/** Maps any error to the catalogue. Never lets a stack trace or an internal message reach the client. */
export function toApiError(error: FastifyError | Error): ApiError {
  if (error instanceof ApiError) return error;
  const fastifyError = error as FastifyError;
  if (fastifyError.validation) {
    return new ApiError('VALIDATION', describeValidationErrors(fastifyError.validation, fastifyError.validationContext));
  }
  const known = fastifyError.code ? FASTIFY_CODES[fastifyError.code] : undefined;
  if (known) {
    const cause = known.kind === 'PAYLOAD_TOO_LARGE' ? fastifyError.message : known.cause;
    return new ApiError(known.kind, cause);
  }
  if (fastifyError.statusCode === 400 && error instanceof SyntaxError) return new ApiError('VALIDATION', '(body): malformed JSON');
  if (isDatabaseUnavailable(error)) return new ApiError('UNAVAILABLE', undefined, { 'retry-after': UNAVAILABLE_RETRY_AFTER_SECONDS });
  return new ApiError('UNKNOWN');
}

export function registerErrorHandling(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const apiError = toApiError(error);
    if (apiError.status >= 500) request.log.error({ err: error }, `${apiError.code}: ${error.message}`);
    else request.log.info({ code: apiError.code, cause: apiError.cause }, 'request rejected');
    return sendError(request, reply, apiError);
  });
  app.setNotFoundHandler((request, reply) =>
    sendError(request, reply, new ApiError('NOT_FOUND', `No route ${request.method} ${request.url.split('?')[0]}`)),
  );
}

export { ErrorCatalogue };
