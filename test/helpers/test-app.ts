import { randomUUID } from 'node:crypto';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { buildApp, type AppDeps } from '../../src/app.js';
import { loadConfig, type Config } from '../../src/config/index.js';
import type { App } from '../../src/http/route-context.js';
import type { Database } from '../../src/infrastructure/db/connect.js';
import type { JobQueue } from '../../src/infrastructure/queue/job-queue.js';
import { createContext } from '../../src/composition.js';
import { seedDemoData, type DemoPartnerCredential } from '../../src/services/sandbox/demo-data.js';
import { createTestDatabase } from './database.js';

/** A clock tests move by hand (credential rotation windows, expiry) instead of sleeping. */
export class TestClock {
  constructor(public current = new Date()) {}
  now = () => new Date(this.current);
  advance(ms: number) {
    this.current = new Date(this.current.getTime() + ms);
  }
}

export interface Caller {
  clientId: string;
  clientSecret: string;
}

export interface CallOptions {
  query?: Record<string, string>;
  body?: unknown;
  headers?: Record<string, string | undefined>;
  /** Credentials to send; defaults to the Storefront demo partner. `null` sends none. */
  as?: Caller | null;
  /** X-Correlation-ID to send; defaults to a fresh UUID. `null` sends none. */
  correlationId?: string | null;
}

export type TestApp = Awaited<ReturnType<typeof startTestApp>>;

/**
 * The real application on a fresh database with the sandbox demo data: two partners (Storefront App and
 * Registration Integration), and the demo fundraisers. Requests go through app.inject (the full HTTP pipeline).
 */
export async function startTestApp(
  options: { env?: Record<string, string>; deps?: Partial<AppDeps>; database?: Database; jobQueue?: JobQueue } = {},
) {
  // A database passed in (empty, migrated) stays open after close(): restart tests reopen it.
  const owned = options.database ? null : await createTestDatabase();
  const database: Database = options.database ?? owned!;
  const config: Config = loadConfig({ LOG_LEVEL: 'silent', ...options.env });
  const clock = new TestClock();
  const seeded = (await seedDemoData(database.db, config.APP_ENV, {
    limit: config.QUOTA_DEFAULT_LIMIT,
    windowSeconds: config.QUOTA_DEFAULT_WINDOW_SECONDS,
  }))!;
  // No worker polls in tests: `reconcile()` runs the waiting reconciliation jobs when a test wants them run.
  const context = await createContext(config, { database, jobQueue: options.jobQueue, now: clock.now });
  const jobQueue = context.queue;
  if (!options.jobQueue) await jobQueue.start();
  const app: App = await buildApp({ config, database, logger: false, now: clock.now, ...options.deps });
  const reconciliation = context.workers.reconciliation;
  await app.ready();
  const byChannel = (channel: string) => seeded.find((c) => c.channel === channel) as DemoPartnerCredential;
  const storefront = byChannel('Storefront App');
  const registration = byChannel('Registration Integration');
  const base = config.BASE_PATH;

  async function call(
    method: InjectOptions['method'],
    path: string,
    opts: CallOptions = {},
  ): Promise<LightMyRequestResponse & { json<T = any>(): T }> {
    const as = opts.as === undefined ? storefront : opts.as;
    const headers: Record<string, string> = {};
    const correlationId = opts.correlationId === undefined ? randomUUID() : opts.correlationId;
    if (correlationId !== null) headers['x-correlation-id'] = correlationId;
    if (as) Object.assign(headers, { client_id: as.clientId, client_secret: as.clientSecret });
    for (const [name, value] of Object.entries(opts.headers ?? {})) {
      if (value === undefined) delete headers[name];
      else headers[name] = value;
    }
    return app.inject({
      method,
      url: `${base}${path}`,
      query: opts.query,
      headers,
      ...(opts.body === undefined ? {} : { payload: opts.body as object }),
    });
  }

  return {
    app,
    config,
    database,
    db: database.db,
    clock,
    storefront,
    registration,
    call,
    get: (path: string, opts?: CallOptions) => call('GET', path, opts),
    post: (path: string, body: unknown, opts?: CallOptions) => call('POST', path, { ...opts, body }),
    jobQueue,
    /** The recurring donations' worker: `scan()` looks for due work, `runPending()` collects the queued debits. */
    recurring: context.workers.recurring,
    /** Runs every waiting reconciliation job now, in this process; resolves with how many ran. */
    reconcile: () => reconciliation.runPending(),
    async close() {
      await app.close();
      // Long enough for a running job to finish on a slow machine: given up on, it would record its completion in
      // the database disposed of below (an unhandled "PGlite is closed"). Stopping takes no longer than the job.
      await jobQueue.stop(30_000);
      await owned?.dispose();
    },
  };
}

/** A valid donation for the demo fundraiser 10000001 on the Storefront App channel. */
export function donationBody(
  overrides: { transactionId?: string; amount?: string; fundraiserId?: string; channel?: string } = {},
) {
  return {
    source: { channel: overrides.channel ?? 'Storefront App', fundraiserId: overrides.fundraiserId ?? '10000001' },
    donor: {
      email: 'jo.citizen@example.com',
      firstName: 'Jo',
      lastName: 'Citizen',
      mobile: '0412 345 678',
      billingAddress: { street: '1 Main St', city: 'Sydney', state: 'NSW', postalCode: '2000', country: 'AU' },
    },
    transaction: {
      id: overrides.transactionId ?? randomUUID(),
      date: '2026-11-21T10:00:00+10:00',
      amount: overrides.amount ?? '20.50',
    },
    sourceMetadata: { orderNumber: 'ORD-1', orderTotal: '120.50' },
  };
}
