import type { DeliveryWithAttempts } from '../../infrastructure/repositories/webhook-deliveries.js';
import type { EndpointRow } from '../../infrastructure/repositories/webhook-endpoints.js';

const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());

/** An endpoint as its partner sees it: never its secret (shown once, when created or rotated). */
export function toEndpointRecord(row: EndpointRow) {
  const overlapEnds = row.previous_secret_expires_at ? new Date(row.previous_secret_expires_at) : null;
  return {
    id: row.id,
    url: row.url,
    events: row.events,
    status: row.status,
    disabledReason: row.disabled_reason,
    disabledAt: iso(row.disabled_at),
    failingSince: iso(row.failing_since),
    previousSecretExpiresAt: overlapEnds && overlapEnds > new Date() ? overlapEnds.toISOString() : null,
    createdAt: iso(row.created_at)!,
  };
}
export type EndpointRecord = ReturnType<typeof toEndpointRecord>;

/** A delivery with every attempt: when, the answer's status, how long it took and what it said. */
export function toDeliveryRecord(row: DeliveryWithAttempts) {
  return {
    id: row.id,
    eventId: row.event_id,
    eventType: row.event_type,
    endpointId: row.endpoint_id,
    status: row.status,
    attempts: row.attempts,
    nextAttemptAt: iso(row.next_attempt_at),
    failureReason: row.failure_reason,
    replayOf: row.replay_of,
    createdAt: iso(row.created_at)!,
    finishedAt: iso(row.finished_at),
    attemptLog: row.attempt_rows.map((a) => ({
      attempt: a.attempt,
      attemptedAt: iso(a.attempted_at)!,
      responseStatus: a.response_status,
      latencyMs: a.latency_ms,
      responseSnippet: a.response_snippet,
      error: a.error,
    })),
  };
}
