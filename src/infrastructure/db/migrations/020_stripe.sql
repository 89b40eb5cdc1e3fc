-- Stripe as the payment provider (docs/decisions/0028-payment-provider-behind-an-interface.md): customers reused per
-- partner and fundraiser, the Stripe mandate behind each of our mandates, and the webhook events already handled.

-- One Stripe Customer per partner and fundraiser account, so a fundraiser's mandates with one partner share it.
create table stripe_customers (
  partner_id      uuid not null references partners (id) on delete cascade,
  account_id      uuid not null references accounts (id) on delete cascade,
  customer_id     text not null,
  created_at      timestamptz not null default now(),
  primary key (partner_id, account_id)
);

-- What the webhooks tell beyond the setup intent's status: the Mandate object's id and status (active, inactive,
-- pending), and the creation time of the newest event applied of each kind, so an older event delivered late
-- never overwrites a newer state (Stripe does not deliver events in order).
alter table mandates
  add column provider_mandate_id text,
  add column mandate_status text,
  add column intent_event_created bigint,
  add column mandate_event_created bigint;
create index mandates_provider_mandate_idx on mandates (provider_mandate_id) where provider_mandate_id is not null;

-- Stripe event ids already handled: a replay (Stripe retries, or an attacker resending a signed payload within the
-- tolerance) is acknowledged and changes nothing.
create table stripe_events (
  id              text primary key,
  type            text not null,
  created         bigint not null,
  received_at     timestamptz not null default now()
);
