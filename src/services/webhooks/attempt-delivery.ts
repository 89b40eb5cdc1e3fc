import type { Kysely } from 'kysely';
import { isDelivered, retryDelaySeconds } from '../../domain/webhooks.js';
import type { DB } from '../../infrastructure/db/schema.js';
import {
  failPendingDeliveries,
  insertAttempt,
  lockDeliveryForAttempt,
  updateDelivery,
  type DeliveryToAttempt,
} from '../../infrastructure/repositories/webhook-deliveries.js';
import { noteAttemptOnEndpoint } from '../../infrastructure/repositories/webhook-endpoints.js';
import { postJson, type PostResult } from '../../infrastructure/webhooks/http-sender.js';
import { signMessage } from '../../infrastructure/webhooks/signer.js';
import { enqueueJob, webhookDeliveryJob, type DeliveryJob } from '../jobs/definitions.js';
import { noticeEndpointDisabled } from '../notices/announcements.js';
import type { WebhookSettings } from './settings.js';

export type AttemptOutcome =
  | { attempted: false; reason: string }
  | {
      attempted: true;
      delivered: boolean;
      status: number | null;
      nextAttemptInSeconds: number | null;
      disabled: boolean;
    };

/**
 * One attempt of one delivery (one job). The POST happens outside any transaction; its result, the delivery's new
 * state and the job of the next attempt (after the schedule's delay) are then written together, so a crash in
 * between repeats the attempt rather than losing the delivery: delivery is at least once, and receivers
 * deduplicate on `webhook-id`.
 */
export async function attemptDelivery(
  db: Kysely<DB>,
  job: DeliveryJob,
  settings: WebhookSettings,
  now: () => Date = () => new Date(),
): Promise<AttemptOutcome> {
  const delivery = await db.transaction().execute((trx) => lockDeliveryForAttempt(trx, job.deliveryId));
  if (!delivery) return { attempted: false, reason: 'delivery not found (pruned)' };
  if (delivery.status !== 'pending') return { attempted: false, reason: `delivery already ${delivery.status}` };
  const stopped = delivery.deleted_at
    ? 'endpoint deleted'
    : delivery.endpoint_status !== 'enabled'
      ? 'endpoint disabled'
      : null;
  if (stopped) {
    await db.transaction().execute((trx) => failPendingDeliveries(trx, delivery.endpoint_id, stopped, now()));
    return { attempted: false, reason: stopped };
  }
  const attemptedAt = now();
  const result = await post(delivery, settings, attemptedAt);
  return db.transaction().execute((trx) => recordResult(trx, delivery, result, attemptedAt, settings));
}

function post(delivery: DeliveryToAttempt, settings: WebhookSettings, at: Date): Promise<PostResult> {
  const { secretBox } = settings;
  const secrets = [secretBox.open(delivery.secret_encrypted, delivery.endpoint_id)];
  const previousUntil = delivery.previous_secret_expires_at;
  if (delivery.previous_secret_encrypted && previousUntil && new Date(previousUntil) > at)
    secrets.push(secretBox.open(delivery.previous_secret_encrypted, delivery.endpoint_id));
  const body = JSON.stringify({
    id: delivery.event_id,
    type: delivery.type,
    timestamp: new Date(delivery.event_created_at).toISOString(),
    sequence: Number(delivery.sequence),
    data: delivery.data,
  });
  const headers = signMessage(secrets, delivery.event_id, at, body);
  return postJson(delivery.url, body, { ...headers }, settings);
}

async function recordResult(
  trx: Kysely<DB>,
  delivery: DeliveryToAttempt,
  result: PostResult,
  at: Date,
  settings: WebhookSettings,
): Promise<AttemptOutcome> {
  const current = await lockDeliveryForAttempt(trx, delivery.id);
  const attempt = (current?.attempts ?? delivery.attempts) + 1;
  await insertAttempt(trx, {
    delivery_id: delivery.id,
    attempt,
    attempted_at: at,
    response_status: result.status,
    latency_ms: result.latencyMs,
    response_snippet: result.snippet,
    error: result.error,
  });
  const delivered = isDelivered(result.status);
  const reason = result.status === null ? (result.error ?? 'no answer') : `HTTP ${result.status}`;
  const disabled = await noteAttempt(trx, delivery, { ok: delivered, at, reason }, settings);
  const outcome = { attempted: true as const, delivered, status: result.status, disabled };
  // Another run finished this delivery meanwhile (a job retried while still running): only the attempt is noted.
  if (!current || current.status !== 'pending') return { ...outcome, nextAttemptInSeconds: null };
  if (delivered) {
    await updateDelivery(trx, delivery.id, {
      status: 'delivered',
      attempts: attempt,
      next_attempt_at: null,
      finished_at: at,
    });
    return { ...outcome, nextAttemptInSeconds: null };
  }
  await updateDelivery(trx, delivery.id, { attempts: attempt });
  if (disabled) {
    await failPendingDeliveries(trx, delivery.endpoint_id, 'endpoint disabled after failing for too long', at);
    return { ...outcome, nextAttemptInSeconds: null };
  }
  const delay = retryDelaySeconds(settings.schedule, attempt);
  if (delay === null) {
    await updateDelivery(trx, delivery.id, {
      status: 'failed',
      failure_reason: `gave up after ${attempt} attempts (last: ${reason})`,
      next_attempt_at: null,
      finished_at: at,
    });
    return { ...outcome, nextAttemptInSeconds: null };
  }
  await updateDelivery(trx, delivery.id, { next_attempt_at: new Date(at.getTime() + delay * 1000) });
  await enqueueJob(trx, webhookDeliveryJob, { deliveryId: delivery.id }, { startAfterSeconds: delay });
  return { ...outcome, nextAttemptInSeconds: delay };
}

/** Notes the attempt on its endpoint; when that disables the endpoint, its partner's technical contacts are told. */
async function noteAttempt(
  trx: Kysely<DB>,
  delivery: DeliveryToAttempt,
  outcome: { ok: boolean; at: Date; reason: string },
  settings: WebhookSettings,
): Promise<boolean> {
  const failingSeconds = settings.disableAfterSeconds;
  const disabled = await noteAttemptOnEndpoint(trx, delivery.endpoint_id, {
    ...outcome,
    disableAfterSeconds: failingSeconds,
  });
  if (disabled)
    await noticeEndpointDisabled(trx, {
      id: delivery.endpoint_id,
      url: delivery.url,
      at: outcome.at,
      lastFailure: outcome.reason,
      failingSeconds,
    });
  return disabled;
}
