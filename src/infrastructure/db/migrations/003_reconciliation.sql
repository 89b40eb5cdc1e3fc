-- Remittance reconciliation (docs/reconciliation.md and
-- docs/decisions/0031-reconciliation-outcomes-and-exactly-once-settlement.md). The job queue itself (pg-boss)
-- installs and migrates its own schema, `pgboss`, when the queue starts.

alter table remittance_batches
  -- Entries per outcome once reconciled, e.g. {"matched": 9, "amount_mismatch": 1}.
  add column outcome_counts   jsonb not null default '{}',
  add column exception_count  integer,
  -- Reconciliation runs started (a crash or an error counts); the last failure, for operators.
  add column attempts         integer not null default 0,
  add column last_error       text,
  add column last_error_at    timestamptz,
  -- Set when the job ran out of retries and went to the dead-letter queue; cleared by a manual retry.
  add column dead_lettered_at timestamptz;
create index remittance_batches_status_idx on remittance_batches (status, created_at);

-- Exceptions across batches are what operators list most; matched entries are the bulk and are skipped.
create index remittance_entries_exceptions_idx on remittance_entries (outcome, batch_id)
  where outcome is not null and outcome <> 'matched';

-- One row per bank transaction that settled donations. The primary key is the rule "a bank reference settles
-- once per partner and environment": a second, different entry with the same reference cannot claim it again.
create table remittance_bank_references (
  partner_id        uuid not null references partners (id),
  environment       text not null,
  bank_reference_id text not null,
  batch_id          uuid not null,
  position          integer not null,
  amount_cents      bigint not null check (amount_cents > 0),
  -- Distinct and sorted, so that "the identical entry posted again" is a plain comparison.
  donation_ids      text[] not null,
  settled_at        timestamptz not null default now(),
  primary key (partner_id, environment, bank_reference_id),
  foreign key (batch_id, position) references remittance_entries (batch_id, position)
);

-- A donation is settled at most once: the primary key decides, whatever the workers do.
create table donation_settlements (
  donation_id           uuid primary key references donations (id),
  donation_reference_id text not null unique,
  partner_id            uuid not null,
  environment           text not null,
  bank_reference_id     text not null,
  batch_id              uuid not null,
  position              integer not null,
  amount_cents          bigint not null check (amount_cents > 0),
  settled_at            timestamptz not null default now(),
  foreign key (partner_id, environment, bank_reference_id)
    references remittance_bank_references (partner_id, environment, bank_reference_id)
);
create index donation_settlements_batch_idx on donation_settlements (batch_id);
