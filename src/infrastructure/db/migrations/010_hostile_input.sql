-- Hostile input: a mandate's own provider key
-- (docs/decisions/0013-mandate-provider-key-is-derived-from-our-request.md) and failed-authentication counters
-- (docs/decisions/0037-throttle-failed-authentication-by-address.md).

-- The key a mandate's setup intent was created with at the payment provider: derived from our own mandate request
-- (or from the partner's Idempotency-Key, scoped to that partner), never from the correlation id. Unique, so that
-- two mandates can never share a provider intent. Null for mandates created before this column existed.
alter table mandates add column provider_idempotency_key text;
create unique index mandates_provider_idempotency_key_idx on mandates (provider_idempotency_key);

-- Failed authentications per client id and per source address, in fixed windows, shared by every instance so a
-- lock-out holds whichever instance the next attempt reaches.
create table auth_failure_counters (
  key           text not null,
  window_start  timestamptz not null,
  count         integer not null,
  primary key (key, window_start)
);
