import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import type { Bindings, ChildLoggerOptions, LevelWithSilentOrString, LogFn } from 'pino';

const LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/**
 * A request's logger (`request.log`, `reply.log`), made by Fastify for every request through
 * `childLoggerFactory`. Every line it writes names the request id, the correlation id the partner sees in the
 * envelope and, once authenticated, the partner; the pino child carrying them is made when the request writes its
 * first line, with what is known by then.
 *
 * Why not a pino child per request, as Fastify makes by default: a child serialises its bindings through the
 * redaction paths when it is made. Two of them per request (the request id's, then the partner's) were ~4 KB of
 * garbage and a tenth of GET /ping's CPU (bench profile), for requests that at the default level log nothing.
 */
export class RequestLogger implements FastifyBaseLogger {
  /** Set by the first request hook: where the correlation id and the partner are read from. */
  request: FastifyRequest | null = null;
  private bound: FastifyBaseLogger | null = null;

  declare fatal: LogFn;
  declare error: LogFn;
  declare warn: LogFn;
  declare info: LogFn;
  declare debug: LogFn;
  declare trace: LogFn;
  declare silent: LogFn;

  constructor(
    // pino's; a logger without isLevelEnabled (Fastify's no-op one, when logging is off) is asked nothing.
    private readonly parent: FastifyBaseLogger & { isLevelEnabled?(level: string): boolean },
    private readonly reqId: string,
  ) {}

  get level(): LevelWithSilentOrString {
    return this.bound?.level ?? this.parent.level;
  }

  set level(level: LevelWithSilentOrString) {
    this.logger().level = level;
  }

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.logger().child(bindings, options);
  }

  /** Whether a line at `level` would be written (asked of the parent: no child is made to answer). */
  writes(level: string): boolean {
    return level !== 'silent' && (this.parent.isLevelEnabled?.(level) ?? true);
  }

  /** The pino child with this request's bindings, made once. */
  logger(): FastifyBaseLogger {
    const request = this.request;
    return (this.bound ??= this.parent.child({
      reqId: this.reqId,
      ...(request?.correlationId ? { correlationId: request.correlationId } : {}),
      ...(request?.principal ? { partnerId: request.principal.partnerId } : {}),
    }));
  }
}

// One method per level on the prototype: a level the logger does not write costs a check, not a child.
for (const level of LEVELS) {
  Object.defineProperty(RequestLogger.prototype, level, {
    value: function (this: RequestLogger, ...args: Parameters<LogFn>) {
      if (this.writes(level)) this.logger()[level](...args);
    },
  });
}
