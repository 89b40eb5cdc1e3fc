import net from 'node:net';
import type { Logger } from 'pino';
import type { Config } from './config/index.js';
import { acceptQueueLength } from './http/accept-queue.js';
import type { Lifecycle } from './http/lifecycle.js';
import type { App } from './http/route-context.js';
import type { Database } from './infrastructure/db/connect.js';

export interface ShutdownParts {
  config: Config;
  log: Logger;
  app: App;
  /** Moved forward here; the app reads it (readiness, `Connection: close`). */
  lifecycle: Lifecycle;
  stopJobs(timeoutMs: number): Promise<void>;
  database: Database;
}

/**
 * Longest wait for keep-alive clients to take their `Connection: close` before idle sockets are closed (closing an
 * idle socket races a request its client may be sending: on a loaded machine 3 s left a few of 50 clients reset).
 * It ends as soon as every connection has gone, so a generous bound costs nothing when clients are prompt.
 */
const DRAIN_MS = 5000;
/** Longest time spent accepting what the kernel queued, for clients that open a connection per request. */
const ACCEPT_MAX_MS = 3000;

/**
 * SIGTERM/SIGINT, in the order that resets nothing a client has sent:
 * 1. readiness goes DOWN; after SHUTDOWN_DELAY_MS (time for a load balancer to notice) the listener accepts until
 *    the kernel's accept queue is empty (closing a listener resets every connection still queued in it, requests
 *    written and all);
 * 2. the listener closes; whatever arrives on open connections is answered with `Connection: close`, so clients
 *    leave on their own instead of being cut while sending; what stays idle is closed after DRAIN_MS;
 * 3. running jobs reach a safe point, the database closes;
 * all within SHUTDOWN_DELAY_MS + SHUTDOWN_GRACE_MS, after which the process exits anyway.
 */
export function gracefulShutdown(parts: ShutdownParts): (signal: string) => Promise<void> {
  const { config, log, app, lifecycle } = parts;
  return async (signal) => {
    if (lifecycle.stopping) return;
    lifecycle.stopping = true;
    log.info({ signal, delayMs: config.SHUTDOWN_DELAY_MS }, 'shutting down: readiness down');
    const force = setTimeout(() => {
      log.error('graceful shutdown timed out; exiting');
      process.exit(1);
    }, config.SHUTDOWN_DELAY_MS + config.SHUTDOWN_GRACE_MS);
    force.unref();
    // Behind a load balancer: keep serving while it sees readiness DOWN and stops sending new connections.
    if (config.SHUTDOWN_DELAY_MS > 0) await new Promise((resolve) => setTimeout(resolve, config.SHUTDOWN_DELAY_MS));
    // Of the grace period: up to 1/6 accepting, 1/2 draining, 1/4 for running jobs, the rest to close.
    const grace = config.SHUTDOWN_GRACE_MS;
    await acceptQueuedConnections(app, Math.min(ACCEPT_MAX_MS, grace / 6));
    // net.Server's close stops listening without http.Server's closing of idle keep-alive sockets, which would race
    // a request a client is sending on one of them (it would see a reset).
    lifecycle.closingConnections = true;
    net.Server.prototype.close.call(app.server);
    log.info('listener closed: draining connections');
    await waitForConnections(app, Math.min(DRAIN_MS, grace / 2));
    await app.close();
    // A reconciliation still running gets part of the grace period; if it cannot finish, its transaction rolls
    // back and the job is retried (by another instance within seconds, or by this one's successor).
    await parts.stopJobs(grace / 4);
    await parts.database.close();
    log.info('stopped');
    process.exit(0);
  };
}

/**
 * Keeps the listener open until the kernel's accept queue for it is empty (checked every 10 ms), bounded by
 * `maxMs` for clients that open a new connection for every request. Where the kernel does not tell, one turn of the
 * event loop with no new connection is taken as the sign instead.
 */
async function acceptQueuedConnections(app: App, maxMs: number): Promise<void> {
  const deadline = Date.now() + maxMs;
  let accepted = 0;
  const onConnection = () => {
    accepted += 1;
  };
  app.server.on('connection', onConnection);
  try {
    while (Date.now() < deadline) {
      const before = accepted;
      const queued = await acceptQueueLength(app.server.address());
      if (queued === 0) return;
      await new Promise((resolve) => (queued === null ? setImmediate(resolve) : setTimeout(resolve, 10)));
      if (queued === null && accepted === before) return;
    }
  } finally {
    app.server.off('connection', onConnection);
  }
}

async function waitForConnections(app: App, maxMs: number): Promise<void> {
  const deadline = Date.now() + maxMs;
  while (Date.now() < deadline) {
    const open = await new Promise<number>((resolve) => app.server.getConnections((_err, count) => resolve(count)));
    if (open === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
