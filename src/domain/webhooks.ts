/** Partner webhooks: event types, subscriptions and the retry schedule (docs/webhooks.md). Pure rules. */

export const EVENT_TYPES = [
  'mandate.updated',
  'remittance.completed',
  'remittance.funds_received',
  'recurring_donation.debit_succeeded',
  'recurring_donation.debit_failed',
  'recurring_donation.canceled',
  'donation.reversed',
  'donor.erased',
  'webhook.test',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** `*` subscribes to every type, present and future. */
export const ALL_EVENTS = '*';

/**
 * Seconds to wait after failed attempt number `attempt` (1-based), or null when the schedule is exhausted. ±10%
 * jitter spreads the retries of many deliveries that failed together (a receiver's outage) so they do not all
 * come back at the same second.
 */
export function retryDelaySeconds(schedule: readonly number[], attempt: number, random: () => number = Math.random) {
  const base = schedule[attempt - 1];
  if (base === undefined) return null;
  return base * (0.9 + 0.2 * random());
}

/** 2xx is delivered; anything else (redirects included: they are not followed) is a failure to retry. */
export const isDelivered = (status: number | null) => status !== null && status >= 200 && status < 300;
