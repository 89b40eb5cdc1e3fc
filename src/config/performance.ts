import { Type } from '@sinclair/typebox';

/**
 * Settings of write batching (docs/decisions/0041-group-commit-of-donations-and-mandates.md) and of the embedded
 * database's memory and work sizes at scale (docs/deploy.md, "Node flags"; BENCHMARKS.md).
 */
export const PerformanceSettings = {
  DONATION_GROUP_COMMIT: Type.Boolean({
    default: true,
    description:
      'Write donations that arrive together (without an Idempotency-Key) in one statement and one commit; false: one statement each.',
  }),
  DONATION_GROUP_COMMIT_MAX_WAIT_MS: Type.Integer({
    minimum: 0,
    maximum: 1000,
    default: 2,
    description: 'Longest a donation waits for others to share its statement (the latency group commit may add).',
  }),
  DONATION_GROUP_COMMIT_MAX_ROWS: Type.Integer({
    minimum: 1,
    maximum: 1000,
    default: 100,
    description: 'Most donations written by one statement; a full group is written at once.',
  }),
  MANDATE_GROUP_COMMIT: Type.Boolean({
    default: true,
    description:
      'Write mandates created together (without an Idempotency-Key) in one statement and one commit; false: one statement each.',
  }),
  MANDATE_GROUP_COMMIT_MAX_WAIT_MS: Type.Integer({
    minimum: 0,
    maximum: 1000,
    default: 2,
    description: 'Longest a new mandate waits for others to share its statement (the latency group commit may add).',
  }),
  MANDATE_GROUP_COMMIT_MAX_ROWS: Type.Integer({
    minimum: 1,
    maximum: 1000,
    default: 100,
    description: 'Most mandates written by one statement; a full group is written at once.',
  }),
  HEAP_GROWTH_PERCENT: Type.Integer({
    minimum: 0,
    maximum: 300,
    default: 20,
    description:
      "How far the JavaScript heap may grow past what the last full garbage collection found live before the next one (V8's --heap-growing-percent); 0: V8's own choice, up to 4 times.",
  }),
};
