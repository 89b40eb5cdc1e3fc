import { collectDefaultMetrics, Counter, Histogram, Registry } from 'prom-client';

/**
 * Adds metrics to an app's registry. Other parts of the service (the job queue's depth and age, for one) hand
 * theirs to `createMetrics({ collectors })` instead of touching prom-client's global registry.
 */
export type MetricsCollector = (registry: Registry) => void;

/** Latency buckets in seconds: most calls are a few milliseconds; anything past 5 s is already a problem. */
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export type AppMetrics = ReturnType<typeof createMetrics>;

/**
 * The metrics of one app, in a registry of its own: prom-client's default registry is global, and two apps in one
 * process (tests, a restart in place) must not share or double-register counters.
 */
export function createMetrics(options: { collectors?: MetricsCollector[]; nodeDefaults?: boolean } = {}) {
  const registry = new Registry();
  if (options.nodeDefaults ?? true) collectDefaultMetrics({ register: registry });
  const requests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests answered, by route pattern, method and status.',
    labelNames: ['route', 'method', 'status'] as const,
    registers: [registry],
  });
  const latency = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time to answer an HTTP request, by route pattern and method.',
    labelNames: ['route', 'method'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
  const rejections = new Counter({
    name: 'partner_requests_rejected_total',
    help: 'Partner requests refused: reason authentication (401) or quota (429).',
    labelNames: ['reason'] as const,
    registers: [registry],
  });
  const donationsRecorded = new Counter({
    name: 'donations_recorded_total',
    help: 'Donations recorded by POST /donations (replays of an earlier request not counted).',
    registers: [registry],
  });
  const donationGroupRows = new Histogram({
    name: 'donation_group_commit_rows',
    help: 'Donations written by one statement under group commit (DONATION_GROUP_COMMIT).',
    buckets: [1, 2, 4, 8, 16, 32, 64, 128, 256],
    registers: [registry],
  });
  const mandateGroupRows = new Histogram({
    name: 'mandate_group_commit_rows',
    help: 'Mandates written by one statement under group commit (MANDATE_GROUP_COMMIT).',
    buckets: [1, 2, 4, 8, 16, 32, 64, 128, 256],
    registers: [registry],
  });
  for (const collector of options.collectors ?? []) collector(registry);
  return {
    registry,
    requests,
    latency,
    rejections,
    ...authenticationMetrics(registry),
    donationsRecorded,
    donationGroupRows,
    mandateGroupRows,
  };
}

/** Failed authentications by kind, and the addresses they locked out (docs/security.md, "Guessing a secret"). */
function authenticationMetrics(registry: Registry) {
  const authenticationFailures = new Counter({
    name: 'partner_authentication_failures_total',
    help:
      'Failed partner authentications by kind: missing, basic-mismatch, unknown-client, wrong-secret (a known ' +
      'client id: someone may be guessing it), unusable (the right secret of a revoked, expired or suspended credential).',
    labelNames: ['reason'] as const,
    registers: [registry],
  });
  const authenticationLockouts = new Counter({
    name: 'partner_authentication_lockouts_total',
    help: 'Source addresses locked out after AUTH_FAILURE_LIMIT_PER_ADDRESS failed authentications in a window.',
    registers: [registry],
  });
  return { authenticationFailures, authenticationLockouts };
}
