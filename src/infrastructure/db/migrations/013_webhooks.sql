-- Partner webhooks and the event log (docs/webhooks.md and
-- docs/decisions/0040-partner-webhooks-outbox-and-standard-webhooks.md).

-- A partner's receiver. The signing secret must be usable to sign (Standard Webhooks is HMAC), so it is stored
-- encrypted (AES-256-GCM, key WEBHOOK_SECRET_KEY), never hashed. During a rotation the previous secret signs too,
-- until previous_secret_expires_at.
create table webhook_endpoints (
  id                         uuid primary key,
  partner_id                 uuid not null references partners (id),
  environment                text not null,
  url                        text not null,
  -- Event types, or {'*'} for every type.
  events                     text[] not null,
  secret_encrypted           text not null,
  previous_secret_encrypted  text,
  previous_secret_expires_at timestamptz,
  status                     text not null default 'enabled' check (status in ('enabled', 'disabled')),
  disabled_reason            text,
  disabled_at                timestamptz,
  -- First failed attempt since the last delivered one; an endpoint failing for long enough is disabled.
  failing_since              timestamptz,
  created_at                 timestamptz not null default now(),
  updated_at                 timestamptz not null default now(),
  deleted_at                 timestamptz
);
create index webhook_endpoints_partner_idx on webhook_endpoints (partner_id, environment) where deleted_at is null;

-- The outbox and the partner's event log: written in the transaction of the state change that causes the event.
create table webhook_events (
  id          text primary key,
  partner_id  uuid not null references partners (id),
  environment text not null,
  -- Per partner and environment, gapless, in commit order of the events of one partner.
  sequence    bigint not null,
  type        text not null,
  data        jsonb not null,
  created_at  timestamptz not null default now(),
  unique (partner_id, environment, sequence)
);
create index webhook_events_created_idx on webhook_events (created_at);

-- The last sequence number given to a partner's events; its row lock orders a partner's events.
create table webhook_event_sequences (
  partner_id    uuid not null references partners (id),
  environment   text not null,
  last_sequence bigint not null,
  primary key (partner_id, environment)
);

-- One event to one endpoint. A replay is a new delivery of the same event (same webhook-id).
create table webhook_deliveries (
  id           uuid primary key,
  event_id     text not null references webhook_events (id) on delete cascade,
  endpoint_id  uuid not null references webhook_endpoints (id),
  status       text not null default 'pending' check (status in ('pending', 'delivered', 'failed')),
  attempts     integer not null default 0,
  next_attempt_at timestamptz,
  -- Why a delivery stopped without succeeding (schedule exhausted, endpoint disabled or deleted).
  failure_reason text,
  replay_of    uuid references webhook_deliveries (id) on delete set null,
  created_at   timestamptz not null default now(),
  finished_at  timestamptz
);
create index webhook_deliveries_endpoint_idx on webhook_deliveries (endpoint_id, created_at desc);
create index webhook_deliveries_event_idx on webhook_deliveries (event_id);

-- Every attempt: when, the answer's status (null when there was none), how long it took, and a short snippet.
create table webhook_attempts (
  id               bigint generated always as identity primary key,
  delivery_id      uuid not null references webhook_deliveries (id) on delete cascade,
  attempt          integer not null,
  attempted_at     timestamptz not null,
  response_status  integer,
  latency_ms       integer not null,
  response_snippet text,
  error            text
);
create index webhook_attempts_delivery_idx on webhook_attempts (delivery_id, attempt);
