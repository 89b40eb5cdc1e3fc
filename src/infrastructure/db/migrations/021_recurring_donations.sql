-- Recurring donations (docs/recurring.md): plans debited on a succeeded mandate, one-off debits, and the donation
-- each collected debit becomes. Dates a debit is due on are calendar dates in the foundation's time zone, stored as
-- 'YYYY-MM-DD' text: they compare in date order and never shift with a session's time zone.

-- What a debit needs of the provider beyond the mandate id: Stripe's customer and payment method (filled when the
-- setup intent succeeds, or read from Stripe at the first debit for mandates older than this migration).
alter table mandates
  add column provider_customer_id text,
  add column provider_payment_method_id text;

-- The sandbox simulator keeps the test account number a mandate was confirmed with: it decides what its debits do.
alter table simulator_setup_intents add column account_number text;

-- A donation collected by the foundation from a debit, rather than by the partner: no postcode was ever asked for.
alter table donations
  add column collected_by text not null default 'partner' check (collected_by in ('partner', 'foundation')),
  add column debit_id text;
alter table donations alter column address_postal_code drop not null;
alter table donations add constraint donations_partner_postcode
  check (collected_by = 'foundation' or address_postal_code is not null);
create unique index donations_debit_idx on donations (debit_id) where debit_id is not null;

create table recurring_plans (
  id                 text primary key,
  partner_id         uuid not null references partners (id),
  environment        text not null,
  is_live            boolean not null,
  mandate_id         text not null references mandates (id),
  channel            text not null,
  account_id         uuid not null references accounts (id),
  fundraiser_id      text not null,
  amount_cents       bigint not null check (amount_cents > 0),
  frequency          text not null check (frequency in ('weekly', 'fortnightly', 'monthly', 'quarterly', 'yearly')),
  start_date         text not null check (start_date ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}$'),
  end_date           text check (end_date ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}$'),
  max_debits         integer check (max_debits > 0),
  partner_reference  text,
  status             text not null default 'active' check (status in ('active', 'past_due', 'canceled', 'completed')),
  -- The next debit to create (its date and its number in the plan); null once the schedule has ended.
  next_due_date      text,
  debits_scheduled   integer not null default 0,
  -- Debits in a row that failed after their last try: past_due at one, canceled at RECURRING_CANCEL_AFTER_FAILED_DEBITS.
  failed_in_a_row    integer not null default 0,
  canceled_reason    text,
  canceled_at        timestamptz,
  request_hash       text not null,
  correlation_id     text not null,
  created_at         timestamptz not null default now(),
  updated_at         timestamptz not null default now()
);
create index recurring_plans_due_idx on recurring_plans (next_due_date) where status in ('active', 'past_due');
create index recurring_plans_mandate_idx on recurring_plans (partner_id, mandate_id, created_at, id);
-- A partner's own reference is a natural key: a retried creation finds the plan the first one made.
create unique index recurring_plans_reference_idx on recurring_plans (partner_id, environment, partner_reference)
  where partner_reference is not null;

create table debits (
  id                      text primary key,
  partner_id              uuid not null references partners (id),
  environment             text not null,
  is_live                 boolean not null,
  mandate_id              text not null references mandates (id),
  -- A plan's debit, or a one-off debit a partner asked for (then transaction_id is its natural key).
  plan_id                 text references recurring_plans (id),
  sequence                integer,
  transaction_id          text,
  amount_cents            bigint not null check (amount_cents > 0),
  due_date                text not null check (due_date ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}$'),
  status                  text not null default 'scheduled'
                            check (status in ('scheduled', 'processing', 'succeeded', 'failed')),
  attempts                integer not null default 0,
  -- The try whose collection job was enqueued: a look for due debits enqueues each try once.
  queued_attempt          integer not null default 0,
  -- When a failed debit is tried again; null when it will not be.
  next_attempt_on         text,
  failure_code            text,
  failure_message         text,
  provider_payment_id     text,
  -- Creation time (epoch seconds) of the newest provider event applied: an older event delivered late is ignored.
  provider_event_created  bigint,
  donation_id             uuid references donations (id),
  disputed_at             timestamptz,
  dispute_reason          text,
  request_hash            text,
  correlation_id          text not null,
  submitted_at            timestamptz,
  settled_at              timestamptz,
  created_at              timestamptz not null default now(),
  updated_at              timestamptz not null default now(),
  check ((plan_id is null) = (transaction_id is not null))
);
-- Each of a plan's debits exists once, whatever runs the schedule and however often.
create unique index debits_plan_date_idx on debits (plan_id, due_date) where plan_id is not null;
create unique index debits_transaction_idx on debits (partner_id, environment, transaction_id)
  where transaction_id is not null;
create index debits_due_idx on debits (due_date) where status = 'scheduled';
create index debits_retry_idx on debits (next_attempt_on) where status = 'failed' and next_attempt_on is not null;
create index debits_plan_idx on debits (plan_id, due_date);
create index debits_mandate_idx on debits (mandate_id, created_at);
create index debits_provider_payment_idx on debits (provider_payment_id) where provider_payment_id is not null;

-- A debit's donation is settled at once: its money is already the foundation's. Settlements were only ever made by
-- a remittance entry; a debit's names the debit instead of a bank reference and a batch.
alter table donation_settlements
  add column debit_id text references debits (id),
  alter column bank_reference_id drop not null,
  alter column batch_id drop not null,
  alter column position drop not null;
alter table donation_settlements add constraint donation_settlements_source check (
  (debit_id is null and bank_reference_id is not null and batch_id is not null and position is not null)
  or (debit_id is not null and bank_reference_id is null and batch_id is null and position is null)
);

-- The sandbox clock of each partner: how far its simulated time runs ahead of the real one (never in production).
create table sandbox_clocks (
  partner_id      uuid primary key references partners (id) on delete cascade,
  offset_seconds  bigint not null default 0 check (offset_seconds >= 0),
  updated_at      timestamptz not null default now()
);

-- The simulator's payments: one per idempotency key, as the provider keeps them, settling at a simulated time.
create table simulator_payments (
  id               text primary key,
  idempotency_key  text not null unique,
  debit_id         text not null,
  partner_id       uuid not null,
  amount_cents     bigint not null,
  account_number   text not null,
  attempt          integer not null,
  outcome          text not null,
  failure_code     text,
  settles_at       timestamptz not null,
  settled          boolean not null default false,
  created_at       timestamptz not null default now()
);
create index simulator_payments_due_idx on simulator_payments (partner_id, settles_at) where not settled;
