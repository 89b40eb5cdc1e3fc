import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import pino, { type Bindings, type DestinationStream, type LoggerOptions } from 'pino';
import { RequestLogger } from './request-logger.js';

/**
 * Secrets and donor contact details never reach the logs, whatever object a log line carries. The serializers
 * below are the structural guard (a request, a response or an error is logged only through a whitelist of its
 * fields); these paths are the second line for objects logged by hand.
 */
export const REDACTED_PATHS = [
  'req.headers.client_secret',
  'req.headers.authorization',
  'headers.client_secret',
  'headers.authorization',
  'client_secret',
  'clientSecret',
  '*.client_secret',
  '*.clientSecret',
  'donor.email',
  'donor.mobile',
  'donor.verifiedEmail',
  'donor.billingAddress',
  '*.donor.email',
  '*.donor.mobile',
  '*.donor.verifiedEmail',
  '*.donor.billingAddress',
  'fundraiser.email',
  '*.fundraiser.email',
];

/** Query parameters whose values are reference data, never personal (every other value is logged as `…`). */
const SHOWN_QUERY_PARAMETERS = new Set(['channel']);

/**
 * A request as logged: method, the route's pattern (never the raw path, whose ids and unknown segments are the
 * caller's input), query parameter names, and the correlation id. No headers (credentials), no body (donors).
 */
function serializeRequest(request: FastifyRequest | Record<string, unknown>) {
  const req = request as Partial<FastifyRequest>;
  const url = typeof req.url === 'string' ? req.url : '';
  const query = url.includes('?') ? new URLSearchParams(url.slice(url.indexOf('?') + 1)) : null;
  return {
    method: req.method,
    route: req.routeOptions?.url ?? '(no route)',
    query: query
      ? Object.fromEntries([...query.keys()].map((k) => [k, SHOWN_QUERY_PARAMETERS.has(k) ? query.get(k) : '…']))
      : undefined,
    id: req.id,
  };
}

function serializeReply(reply: FastifyReply | Record<string, unknown>) {
  return { statusCode: (reply as Partial<FastifyReply>).statusCode };
}

/**
 * An error as logged: its type, code, status and message with quoted values blanked (database messages quote the
 * offending input: `invalid input syntax for type uuid: "…"`), and the stack's frames. Never the error's other
 * properties: a database error carries the statement's parameters (`params`) and the conflicting row (`detail`).
 */
function serializeError(error: unknown) {
  if (!(error instanceof Error)) return { message: typeof error === 'string' ? scrub(error) : '(not an Error)' };
  const e = error as Error & { code?: unknown; statusCode?: unknown };
  const frames = (e.stack ?? '').split('\n').filter((line) => line.startsWith('    at '));
  return {
    type: e.name,
    code: typeof e.code === 'string' ? e.code : undefined,
    statusCode: typeof e.statusCode === 'number' ? e.statusCode : undefined,
    message: scrub(e.message),
    stack: frames.join('\n'),
  };
}

function scrub(message: string): string {
  return message.replace(/"[^"]*"|'[^']*'/g, '"…"');
}

/**
 * The field names a validation cause names (`donor.email: must be …; source.fundraiserId: is required`), without
 * the rest of it: business-rule causes may quote the caller's input (an id, a channel).
 */
export function causeFields(cause: string | undefined): string[] | undefined {
  if (!cause) return undefined;
  return cause
    .split('; ')
    .map((part) => /^([\w.[\]() -]+):/.exec(part)?.[1])
    .filter((field): field is string => Boolean(field) && !field!.includes(' '));
}

function loggerOptions(level: string): LoggerOptions {
  return {
    level,
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    serializers: { req: serializeRequest, res: serializeReply, err: serializeError, error: serializeError },
  };
}

/** The service's logger: JSON lines at `level`, every request, reply and error through the serializers above. */
export function createLogger(level: string, destination?: DestinationStream): pino.Logger {
  return destination ? pino(loggerOptions(level), destination) : pino(loggerOptions(level));
}

/**
 * Fastify's per-request logger: a RequestLogger (./request-logger.ts), which makes its pino child on the request's
 * first line rather than on every request.
 */
export function requestLoggerFactory(logger: FastifyBaseLogger, bindings: Bindings): FastifyBaseLogger {
  return new RequestLogger(logger, String(bindings.reqId));
}

/** Gives the request's logger the request, whose correlation id and partner its lines name. First of the hooks. */
export function bindRequestLog(app: FastifyInstance) {
  app.addHook('onRequest', (request, _reply, done) => {
    if (request.log instanceof RequestLogger) request.log.request = request;
    done();
  });
}
