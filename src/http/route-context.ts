import type {
  FastifyBaseLogger,
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Kysely } from 'kysely';
import type { Config } from '../config/index.js';
import type { Database } from '../infrastructure/db/connect.js';
import type { DB } from '../infrastructure/db/schema.js';
import type { PaymentProvider } from '../infrastructure/payments/provider.js';
import type { PaymentSimulator } from '../infrastructure/payments/simulator.js';
import type { OnBatchStored } from '../services/accept-remittances.js';
import type { DonationWriter } from '../services/donation-group-commit.js';
import type { EnrolmentCache } from '../services/enrolment.js';
import type { MandateWriter } from '../services/mandate-writer.js';
import type { BacklogGate } from '../services/reconciliation/backlog-gate.js';
import type { RecurringDeps } from '../services/recurring/deps.js';
import type { RequestContext } from '../services/record-donation.js';
import type { WebhookSettings } from '../services/webhooks/settings.js';
import { successEnvelope } from './envelope.js';
import { routeOf } from './route-of.js';
import { requirePrincipal } from './types.js';

export type App = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>;

/** What route handlers are given: services' collaborators, never a raw database client to query. */
export interface RouteDeps {
  config: Config;
  database: Database;
  db: Kysely<DB>;
  payments: PaymentProvider;
  /** Only outside production. */
  simulator: PaymentSimulator | null;
  onRemittanceBatchStored?: OnBatchStored;
  /** Called once a new batch is committed (wakes this instance's idle reconciliation worker). */
  onRemittanceBatchCommitted?: () => void;
  /** Refuses new batches while reconciliation is behind (docs/decisions/0081-remittance-backlog-refused-at-the-door.md). */
  remittanceBacklog: BacklogGate;
  webhooks: WebhookSettings;
  /** This application's confirmed enrolments (see services/enrolment.ts). */
  enrolments: EnrolmentCache;
  /** This application's donation writes: group commit unless DONATION_GROUP_COMMIT is false. */
  donations: DonationWriter;
  /** This application's mandate writes: group commit unless MANDATE_GROUP_COMMIT is false. */
  mandates: MandateWriter;
  /** The app's clock (injectable in tests). */
  now: () => Date;
  /** What the recurring donations' services work with (docs/recurring.md). */
  recurring: RecurringDeps;
}

/** Sends the success envelope with the route's `method` and the request's correlation id. */
export function sendItems<T>(request: FastifyRequest, reply: FastifyReply, items: T, status = 200) {
  return reply
    .code(status)
    .send(successEnvelope(request.correlationId, routeOf(request).config.envelopeMethod ?? '/', items));
}

/**
 * `sendItems` for a handler whose service answers at once when it can (a cached enrolment) and with a promise
 * otherwise: the answer known now is sent in the handler's own turn, without a promise (Fastify takes a handler's
 * `undefined` after a send as done).
 */
export function sendItemsWhenKnown<T>(
  request: FastifyRequest,
  reply: FastifyReply,
  items: T | Promise<T>,
): Promise<void> | undefined {
  if (items instanceof Promise)
    return items.then((known) => {
      sendItems(request, reply, known);
    });
  sendItems(request, reply, items);
  return undefined;
}

/** The caller, its correlation id and its Idempotency-Key, for services. */
export function requestContext(request: FastifyRequest, config: Config): RequestContext {
  const key = request.headers['idempotency-key'];
  return {
    principal: requirePrincipal(request.principal),
    correlationId: request.correlationId,
    idempotencyKey: (Array.isArray(key) ? key[0] : key) || undefined,
    isLive: config.APP_ENV === 'production',
  };
}

/** Marks a replayed response so a partner can tell a retry was recognised. */
export function markReplay(reply: FastifyReply, replayed: boolean) {
  if (replayed) reply.header('idempotent-replayed', 'true');
}

/** A `Location` header for a created resource: absolute when PUBLIC_BASE_URL is set, else an absolute path. */
export function setLocation(reply: FastifyReply, config: Config, path: string) {
  reply.header('location', `${config.PUBLIC_BASE_URL ?? ''}${config.BASE_PATH}${path}`);
}
