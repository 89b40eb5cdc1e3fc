import { randomUUID } from 'node:crypto';
import { STATUS_CODES, type Server } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import type { Config } from '../config/index.js';
import { hstsEnabled } from '../config/security.js';
import { ApiError, type ErrorKind } from '../api-errors.js';
import { errorEnvelope } from './envelope.js';
import { protectiveHeaders } from './plugins/security-headers.js';

/** The server settings that bound what one client can hold (timeouts, sizes), as Fastify options. */
export function serverOptions(config: Config) {
  return {
    connectionTimeout: config.CONNECTION_IDLE_TIMEOUT_MS,
    keepAliveTimeout: config.KEEP_ALIVE_TIMEOUT_MS,
    requestTimeout: config.REQUEST_TIMEOUT_MS,
    maxRequestsPerSocket: config.MAX_REQUESTS_PER_SOCKET,
    http: {
      headersTimeout: config.HEADERS_TIMEOUT_MS,
      maxHeaderSize: config.MAX_HEADER_BYTES,
      // Node checks the two timeouts above on this interval (30 s by default, longer than the timeouts themselves).
      connectionsCheckingInterval: Math.max(100, Math.min(1000, Math.floor(config.HEADERS_TIMEOUT_MS / 4))),
    },
  };
}

/** The protective headers every response carries (plugins/security-headers.ts), as lines of a raw response. */
const securityHeaderLines = (config: Config) =>
  protectiveHeaders(hstsEnabled(config))
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');

/** Writes a whole HTTP response with the error envelope straight to a socket, for answers given before Fastify. */
function writeRawError(socket: Socket, kind: ErrorKind, cause: string, securityHeaders: string) {
  const error = new ApiError(kind, cause);
  const correlationId = randomUUID();
  const body = JSON.stringify(errorEnvelope(correlationId, '/', error.code, error.message, cause));
  socket.end(
    `HTTP/1.1 ${error.status} ${STATUS_CODES[error.status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nX-Correlation-ID: ${correlationId}\r\n${securityHeaders}` +
      `Connection: close\r\n\r\n${body}`,
  );
  // A client that never reads its answer must not keep the socket: `end` waits for the write to drain.
  setTimeout(() => socket.destroy(), 1000).unref();
}

/** Node's parser reports an over-long request line and over-long headers alike; the bytes tell them apart. */
function headerOverflowKind(raw: Buffer | undefined, maxUrlLength: number): ErrorKind {
  const text = raw ? raw.toString('latin1', 0, Math.min(raw.length, 65536)) : '';
  const lineEnd = text.indexOf('\r\n');
  const firstLine = lineEnd < 0 ? text : text.slice(0, lineEnd);
  if (/^[A-Z]+ \S/.test(firstLine) && (lineEnd < 0 || firstLine.length > maxUrlLength)) return 'URI_TOO_LONG';
  if (lineEnd < 0 && !text.includes(':')) return 'URI_TOO_LONG';
  return 'HEADERS_TOO_LARGE';
}

/**
 * Answers what Node's HTTP parser refuses before Fastify sees a request (a timeout, headers or a request line too
 * large, bytes that are not HTTP) with a real response in the envelope, then closes the connection.
 */
export function clientErrorHandler(config: Config) {
  const securityHeaders = securityHeaderLines(config);
  return function (
    this: { log: FastifyBaseLogger },
    err: Error & { code?: string; rawPacket?: unknown },
    socket: Socket,
  ) {
    if (err.code === 'ECONNRESET' || socket.destroyed || !socket.writable) {
      socket.destroy();
      return;
    }
    let kind: ErrorKind = 'VALIDATION';
    let cause = '(request): malformed HTTP request';
    if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
      kind = 'REQUEST_TIMEOUT';
      cause = `The request was not received within the server's time limit`;
    } else if (err.code === 'HPE_HEADER_OVERFLOW') {
      kind = headerOverflowKind(Buffer.isBuffer(err.rawPacket) ? err.rawPacket : undefined, config.MAX_URL_LENGTH);
      cause =
        kind === 'URI_TOO_LONG'
          ? `The request line is longer than ${config.MAX_URL_LENGTH} characters`
          : `The request's header fields exceed ${config.MAX_HEADER_BYTES} bytes`;
    }
    this.log.info({ code: err.code, status: new ApiError(kind).status }, 'client error answered before routing');
    writeRawError(socket, kind, cause, securityHeaders);
  };
}

/**
 * How long a connection over the per-address cap has to send its request, answered with its route's `method`:
 * a second, or less when the headers' own timeout is shorter.
 */
const refusalGraceMs = (config: Config) => Math.min(1000, Math.floor(config.HEADERS_TIMEOUT_MS / 2));
/** Marks a connection over the per-address cap, on the socket itself: the app keeps no table of them. */
const OVER_CAP = Symbol('over the per-address connection cap');
type MarkedSocket = Socket & { [OVER_CAP]?: { timer: NodeJS.Timeout } };

/**
 * Bounds connections: `MAX_CONNECTIONS` in total (Node refuses more), `MAX_CONNECTIONS_PER_ADDRESS` from one
 * address (answered 429 and closed), so that a few hundred slow clients cannot take every connection. A connection
 * over the cap is answered on its first request, in the envelope of that request's route (refuseOverCap); one that
 * sends nothing within a second is answered there and then, with the `method` of no route (`/`). It is not counted
 * as open: counted until its close is seen, a client replacing its connections at the cap would have each new one
 * refused in turn, the refusals feeding themselves.
 */
export function limitConnections(server: Server, config: Config) {
  server.maxConnections = config.MAX_CONNECTIONS;
  const securityHeaders = securityHeaderLines(config);
  const open = new Map<string, number>();
  server.on('connection', (socket: MarkedSocket) => {
    const address = socket.remoteAddress ?? 'unknown';
    const count = (open.get(address) ?? 0) + 1;
    if (count > config.MAX_CONNECTIONS_PER_ADDRESS) {
      const timer = setTimeout(() => {
        if (socket.destroyed || !socket.writable) return;
        writeRawError(socket, 'TOO_MANY_CONNECTIONS', overCapCause(config), securityHeaders);
      }, refusalGraceMs(config));
      timer.unref();
      socket[OVER_CAP] = { timer };
      socket.once('close', () => clearTimeout(timer));
      return;
    }
    open.set(address, count);
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left <= 0) open.delete(address);
      else open.set(address, left);
    });
  });
}

const overCapCause = (config: Config) => `At most ${config.MAX_CONNECTIONS_PER_ADDRESS} connections per client address`;

/** The refusal of a request on a connection over the per-address cap (limitConnections), or null. */
function refuseOverCap(request: FastifyRequest, reply: FastifyReply, config: Config): ApiError | null {
  const mark = (request.raw.socket as MarkedSocket | null)?.[OVER_CAP];
  if (!mark) return null;
  clearTimeout(mark.timer);
  reply.header('connection', 'close');
  return new ApiError('TOO_MANY_CONNECTIONS', overCapCause(config));
}

/**
 * Registered before the routes: remembers each route's methods (for 405 and `Allow`), refuses the requests of a
 * connection over the per-address cap and over-long URLs.
 */
export function routeTable(app: FastifyInstance, config: Config) {
  const patterns: { pattern: RegExp; methods: Set<string> }[] = [];
  app.addHook('onRoute', (route: RouteOptions) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const source = route.url
      .replace(/\/+$/, '')
      .split('/')
      .map((segment) => (segment.startsWith(':') ? '[^/]+' : segment === '*' ? '.*' : escapeRegExp(segment)))
      .join('/');
    patterns.push({ pattern: new RegExp(`^${source}/?$`), methods: new Set(methods) });
  });
  // Callback style, as every hook whose work is synchronous: an async hook costs a promise and a turn per request.
  app.addHook('onRequest', (request, reply, done) => {
    const refusal = refuseOverCap(request, reply, config);
    if (refusal) return done(refusal);
    if (request.url.length <= config.MAX_URL_LENGTH) return done();
    done(new ApiError('URI_TOO_LONG', `The URL is longer than ${config.MAX_URL_LENGTH} characters`));
  });
  return (path: string): string[] => {
    const allowed = new Set<string>();
    for (const { pattern, methods } of patterns) if (pattern.test(path)) for (const m of methods) allowed.add(m);
    return [...allowed].sort();
  };
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
