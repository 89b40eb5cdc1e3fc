import { randomUUID } from 'node:crypto';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isDatabaseUnavailable } from '../infrastructure/db/unavailable.js';
import { errorEnvelope } from './envelope.js';
import { routeOf } from './route-of.js';
import { ApiError, ErrorCatalogue, type ErrorKind } from '../api-errors.js';
import { causeFields } from './logging.js';
import { describeValidationErrors } from './validation-cause.js';
import { drainRequest } from './drain.js';
import { customFormats } from './schemas/formats.js';

/** Seconds a client should wait before retrying when we are unavailable. */
const UNAVAILABLE_RETRY_AFTER_SECONDS = '5';

/** Fastify's own errors, mapped onto the catalogue. */
const FASTIFY_CODES: Record<string, { kind: ErrorKind; cause?: string }> = {
  FST_ERR_CTP_BODY_TOO_LARGE: { kind: 'PAYLOAD_TOO_LARGE' },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { kind: 'UNSUPPORTED_MEDIA_TYPE', cause: 'Content-Type must be application/json' },
  FST_ERR_CTP_EMPTY_JSON_BODY: { kind: 'VALIDATION', cause: '(body): a JSON body is required' },
  FST_ERR_CTP_INVALID_JSON_BODY: { kind: 'VALIDATION', cause: '(body): malformed JSON' },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { kind: 'VALIDATION', cause: 'Content-Length does not match the body' },
  FST_ERR_BAD_URL: { kind: 'VALIDATION', cause: 'path: is not a valid URL (malformed percent-encoding)' },
  // A path parameter longer than any id we issue names nothing that exists.
  FST_ERR_MAX_PARAM_LENGTH: { kind: 'NOT_FOUND', cause: 'No resource with such a long id' },
};

/** Any other client error Fastify raises, by its status, so that no 4xx of its own escapes the envelope. */
const KIND_BY_STATUS: Record<number, ErrorKind> = {
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  408: 'REQUEST_TIMEOUT',
  413: 'PAYLOAD_TOO_LARGE',
  414: 'URI_TOO_LONG',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  431: 'HEADERS_TOO_LARGE',
};

/** The method value of the envelope: the route's own (section 2.1), or `/` for anything unhandled. */
function envelopeMethod(request: FastifyRequest): string {
  return routeOf(request).config?.envelopeMethod ?? '/';
}

/** The request's correlation id; framework errors answered before our hooks ran read the header themselves. */
function correlationIdOf(request: FastifyRequest): string {
  if (request.correlationId) return request.correlationId;
  const header = request.headers['x-correlation-id'];
  return typeof header === 'string' && customFormats.uuid(header) ? header : randomUUID();
}

export function sendError(request: FastifyRequest, reply: FastifyReply, error: ApiError) {
  const correlationId = correlationIdOf(request);
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
    return new ApiError(
      'VALIDATION',
      describeValidationErrors(fastifyError.validation, fastifyError.validationContext),
    );
  }
  const known = fastifyError.code ? FASTIFY_CODES[fastifyError.code] : undefined;
  if (known) {
    const cause = known.kind === 'PAYLOAD_TOO_LARGE' ? fastifyError.message : known.cause;
    return new ApiError(known.kind, cause);
  }
  if (fastifyError.statusCode === 400 && error instanceof SyntaxError)
    return new ApiError('VALIDATION', '(body): malformed JSON');
  const status = fastifyError.statusCode ?? 0;
  if (fastifyError.code?.startsWith('FST_') && status >= 400 && status < 500)
    return new ApiError(
      KIND_BY_STATUS[status] ?? 'VALIDATION',
      status === 400 ? '(request): malformed request' : undefined,
    );
  if (isDatabaseUnavailable(error))
    return new ApiError('UNAVAILABLE', undefined, { 'retry-after': UNAVAILABLE_RETRY_AFTER_SECONDS });
  return new ApiError('UNKNOWN');
}

export interface ErrorHandlingOptions {
  /** How much of an unread oversized body is read before answering 413, so the client is not reset. */
  drainLimitBytes: number;
  /** The methods other routes accept on this path, for 405 and `Allow`; empty when the path is unknown. */
  allowedMethods: (path: string) => string[];
}

export function registerErrorHandling(app: FastifyInstance, options: ErrorHandlingOptions) {
  app.setErrorHandler(async (error: FastifyError, request, reply) => {
    const apiError = withDeferredCauses(request, toApiError(error));
    // The message is not in the line's text: the err serializer blanks the input a database message may quote.
    if (apiError.status >= 500) request.log.error({ err: error }, apiError.code);
    else request.log.info({ code: apiError.code, fields: causeFields(apiError.cause) }, 'request rejected');
    // Answering while the client still sends the body would make closing the connection reset it: read the rest.
    // A connection refused over the per-address cap is closed after its answer: read its body first too.
    const closing = apiError.kind === 'TOO_MANY_CONNECTIONS';
    if ((apiError.status === 413 || closing) && !(await drainRequest(request.raw, options.drainLimitBytes)))
      reply.header('connection', 'close');
    return sendError(request, reply, apiError);
  });
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    const allowed = options.allowedMethods(path);
    if (allowed.length > 0)
      return sendError(
        request,
        reply,
        new ApiError('METHOD_NOT_ALLOWED', `${request.method} is not allowed on ${path}`, {
          allow: allowed.join(', '),
        }),
      );
    return sendError(request, reply, new ApiError('NOT_FOUND', `No route ${request.method} ${path}`));
  });
}

/** Validation findings of earlier hooks (an unknown channel) join the schema's, so one answer names them all. */
function withDeferredCauses(request: FastifyRequest, error: ApiError): ApiError {
  const deferred = request.deferredValidationCauses;
  if (!deferred?.length || error.kind !== 'VALIDATION' || error.message !== ErrorCatalogue.VALIDATION.message)
    return error;
  const causes = [...deferred, ...(error.cause ? [error.cause] : [])];
  return new ApiError('VALIDATION', [...new Set(causes)].join('; '), error.headers);
}
