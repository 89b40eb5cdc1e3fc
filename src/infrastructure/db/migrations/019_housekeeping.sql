-- Housekeeping (docs/decisions/0042-housekeeping-prunes-and-vacuums.md): idempotency keys expire after
-- IDEMPOTENCY_RETENTION_HOURS; the prune finds them by age. (The donations' natural key is a unique index on
-- donations and is never pruned.)
create index idempotency_keys_created_idx on idempotency_keys (created_at);
