import { LogController, type FastifyBaseLogger, type FastifyReply, type FastifyRequest } from 'fastify';

/** A successful request slower than this is still worth a line at info. */
const SLOW_REQUEST_MS = 1000;

/**
 * One access-log line per request instead of Fastify's two ('incoming request', then 'request completed'), at
 * `info` for failures (status >= 400) and slow requests, at `debug` for the rest: at the default level a
 * successful request writes no log line. Logging each one cost ~25% of the CPU of GET /ping (bench, with the line
 * already unredacted, below); every refusal and error is still logged, by the error handler and here, and
 * LOG_LEVEL=debug brings back a line for every request. Failed responses keep their 'request errored' line.
 *
 * The line goes through `unredacted`, a child of the application's logger without redaction: none of its fields
 * is ever at a redacted path (no headers, no bodies), and pino's redaction costs ~6 µs per line whatever the
 * fields. Every other line, 'request errored' included, stays redacted.
 */
export class AccessLog extends LogController {
  unredacted: FastifyBaseLogger | null = null;

  override incomingRequest(): void {}

  /** Whether pino writes debug lines (a logger without isLevelEnabled, Fastify's silent one, is asked nothing). */
  private writesDebug(): boolean {
    const log = this.unredacted;
    if (!log || !('isLevelEnabled' in log) || typeof log.isLevelEnabled !== 'function') return true;
    return (log.isLevelEnabled as (level: string) => boolean).call(log, 'debug');
  }

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (this.isLogDisabled(request)) return;
    const responseTime = reply.elapsedTime;
    const atInfo = reply.statusCode >= 400 || responseTime >= SLOW_REQUEST_MS;
    // The common case at the default level: a quick success, written only at debug; no line is built for it.
    if (!error && !atInfo && !this.writesDebug()) return;
    const who = { partnerId: request.principal?.partnerId, correlationId: request.correlationId };
    if (error)
      return reply.log.error({ req: request, res: reply, err: error, responseTime, ...who }, 'request errored');
    const log = this.unredacted ?? reply.log;
    const line = { reqId: request.id, req: request, res: reply, responseTime, ...who };
    if (atInfo) log.info(line, 'request completed');
    else log.debug(line, 'request completed');
  }
}
