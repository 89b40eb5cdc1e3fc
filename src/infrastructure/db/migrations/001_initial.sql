-- The partner API's storage. Money is integer cents (bigint); original partner strings are kept beside
-- normalised values where the spec lets partners send several forms.

create table channels (
  name        text primary key,
  created_at  timestamptz not null default now()
);
insert into channels (name) values ('Storefront App'), ('Registration Integration');

create table partners (
  id                    uuid primary key default gen_random_uuid(),
  name                  text not null unique,
  status                text not null default 'active' check (status in ('active', 'suspended')),
  quota_limit           integer not null check (quota_limit > 0),
  quota_window_seconds  integer not null check (quota_window_seconds > 0),
  created_at            timestamptz not null default now(),
  updated_at            timestamptz not null default now()
);

create table partner_channels (
  partner_id  uuid not null references partners (id) on delete cascade,
  channel     text not null references channels (name),
  primary key (partner_id, channel)
);

-- Only a hash of each secret is kept. A rotation sets expires_at on the old pair (end of the overlap window);
-- an emergency rotation or a revocation sets revoked_at.
create table credentials (
  client_id     text primary key,
  partner_id    uuid not null references partners (id) on delete cascade,
  environment   text not null check (environment in ('sit', 'uat', 'staging', 'production')),
  secret_hash   text not null,
  created_at    timestamptz not null default now(),
  expires_at    timestamptz,
  revoked_at    timestamptz,
  replaced_by   text references credentials (client_id),
  last_used_at  timestamptz
);
create index credentials_partner_idx on credentials (partner_id);

create table accounts (
  id             uuid primary key default gen_random_uuid(),
  member_number  text not null unique,
  crm_id         text,
  -- 18-character CRM ids and their 15-character prefix name the same account.
  crm_id15       text generated always as (left(crm_id, 15)) stored unique,
  name           text not null,
  abn            text,
  created_at     timestamptz not null default now(),
  updated_at     timestamptz not null default now()
);

create table products (
  account_id             uuid not null references accounts (id) on delete cascade,
  channel                text not null references channels (name),
  description            text not null default '',
  status                 text not null,
  logo                   text,
  cover_image            text,
  donation_amounts_cents bigint[] not null default '{}',
  story                  text,
  campaigns              jsonb not null default '{}',
  product_enrollment_id  text,
  enrollment_status      text not null default 'Enrollment Validated',
  updated_at             timestamptz not null default now(),
  primary key (account_id, channel)
);

create table donations (
  id                      uuid primary key default gen_random_uuid(),
  reference_id            text not null unique,
  partner_id              uuid not null references partners (id),
  environment             text not null,
  is_live                 boolean not null,
  channel                 text not null,
  account_id              uuid not null references accounts (id),
  fundraiser_id           text not null,
  fundraiser_account_name text,
  product_enrollment_id   text,
  donor_email             text not null,
  donor_verified_email    text,
  donor_first_name        text not null,
  donor_last_name         text not null,
  donor_mobile            text,
  donor_business_name     text,
  address_street          text,
  address_city            text,
  address_state           text,
  address_postal_code     text not null,
  address_country         text,
  transaction_id          text,
  transaction_date_raw    text,
  transaction_at          timestamptz,
  amount_cents            bigint check (amount_cents > 0),
  source_metadata         jsonb,
  request_hash            text not null,
  correlation_id          uuid not null,
  created_at              timestamptz not null default now()
);
-- The natural key of a retried donation (docs/decisions/0012-idempotent-retries.md): the database decides,
-- not a read-then-write.
create unique index donations_natural_key on donations (partner_id, environment, channel, transaction_id)
  where transaction_id is not null;
create index donations_partner_created_idx on donations (partner_id, created_at);
create index donations_donor_email_idx on donations (lower(donor_email));

-- Idempotency-Key on any POST: the first response is kept and replayed.
create table idempotency_keys (
  partner_id      uuid not null references partners (id),
  key             text not null,
  operation       text not null,
  request_hash    text not null,
  response_status integer,
  response_body   jsonb,
  created_at      timestamptz not null default now(),
  primary key (partner_id, key)
);

create table mandates (
  id                    text primary key,
  partner_id            uuid not null references partners (id),
  environment           text not null,
  channel               text not null,
  account_id            uuid not null references accounts (id),
  fundraiser_id         text not null,
  fundraiser_first_name text not null,
  fundraiser_last_name  text not null,
  fundraiser_email      text not null,
  provider              text not null,
  status                text not null,
  accepted_at           timestamptz,
  payment_method        text,
  url                   text,
  correlation_id        uuid not null,
  created_at            timestamptz not null default now(),
  updated_at            timestamptz not null default now()
);
create index mandates_partner_idx on mandates (partner_id);

-- State of the sandbox payment simulator (the stand-in for the payment provider outside production).
create table simulator_setup_intents (
  id                   text primary key,
  client_secret        text not null,
  idempotency_key      text not null unique,
  status               text not null,
  customer_email       text not null,
  customer_name        text not null,
  last_error           text,
  bsb                  text,
  account_last4        text,
  accepted_at          timestamptz,
  created_at           timestamptz not null default now(),
  updated_at           timestamptz not null default now()
);

create table remittance_batches (
  id              uuid primary key default gen_random_uuid(),
  partner_id      uuid not null references partners (id),
  environment     text not null,
  channel         text not null,
  fundraiser_id   text not null,
  account_id      uuid not null references accounts (id),
  status          text not null default 'accepted'
                  check (status in ('accepted', 'processing', 'completed', 'completed_with_exceptions')),
  entry_count     integer not null,
  total_cents     bigint not null,
  request_hash    text not null,
  correlation_id  uuid not null,
  created_at      timestamptz not null default now(),
  started_at      timestamptz,
  completed_at    timestamptz
);
create index remittance_batches_partner_idx on remittance_batches (partner_id, created_at);

create table remittance_entries (
  batch_id          uuid not null references remittance_batches (id) on delete cascade,
  position          integer not null,
  bank_reference_id text not null,
  amount_cents      bigint not null check (amount_cents > 0),
  donation_ids      text[] not null,
  outcome           text,
  outcome_detail    text,
  primary key (batch_id, position)
);

-- Fixed-window request counters shared by every instance (see the quota store).
create table quota_counters (
  partner_id    uuid not null references partners (id) on delete cascade,
  window_start  timestamptz not null,
  count         integer not null,
  primary key (partner_id, window_start)
);

-- What operators changed, by whom (the CLI writes here).
create table audit_log (
  id          bigserial primary key,
  at          timestamptz not null default now(),
  actor       text not null,
  action      text not null,
  subject     text,
  details     jsonb not null default '{}'
);
