-- The remittance entries whose money no bank line has paid at the moment (`matched` entries without an active match
-- link), as a work list kept by the transactions that change it, beside the open lines of migration 040
-- (docs/decisions/0074-operators-listings-by-key.md). The unpaid list, the automatic rule and the suggestions read
-- these rows instead of walking every batch ever received, oldest first, anti-joined against every link ever made:
-- that read grew with the history while what it found did not.
create table bank_open_entries (
  batch_id          uuid not null,
  position          integer not null,
  -- The batch's arrival: the order operators work the list in, and the suggestions' date bound.
  received_at       timestamptz not null,
  partner_id        uuid not null,
  bank_reference_id text not null,
  amount_cents      bigint not null,
  primary key (batch_id, position)
);
create index bank_open_entries_received_idx on bank_open_entries (received_at, batch_id, position);
create index bank_open_entries_reference_idx on bank_open_entries (upper(bank_reference_id), amount_cents);

insert into bank_open_entries (batch_id, position, received_at, partner_id, bank_reference_id, amount_cents)
select e.batch_id, e.position, b.created_at, b.partner_id, e.bank_reference_id, e.amount_cents
from remittance_entries e
join remittance_batches b on b.id = e.batch_id
where e.outcome = 'matched'
  and not exists (select from bank_match_entries me where me.batch_id = e.batch_id and me.position = e.position and me.active);

-- Kept by triggers, once per statement, so that every path (an entry reconciled, the automatic rule, an operator's
-- match confirmed or undone, a history loaded by COPY) keeps it in the same transaction, whatever the code does.
-- An entry becomes `matched` (reconciliation writes outcomes by UPDATE; a loaded history may INSERT them so).
create function remittance_entries_open() returns trigger language plpgsql as $$
begin
  insert into bank_open_entries (batch_id, position, received_at, partner_id, bank_reference_id, amount_cents)
  select n.batch_id, n.position, b.created_at, b.partner_id, n.bank_reference_id, n.amount_cents
  from new_rows n
  join remittance_batches b on b.id = n.batch_id
  where n.outcome = 'matched'
    and not exists (select from bank_match_entries me where me.batch_id = n.batch_id and me.position = n.position and me.active)
  on conflict (batch_id, position) do nothing;
  return null;
end $$;
create trigger remittance_entries_open after insert on remittance_entries
  referencing new table as new_rows for each statement execute function remittance_entries_open();

-- An outcome rewritten (a resumed reconciliation writes a chunk again): open when it is `matched`, not otherwise.
create function remittance_entries_reopen() returns trigger language plpgsql as $$
begin
  delete from bank_open_entries o using new_rows n
  where o.batch_id = n.batch_id and o.position = n.position and n.outcome is distinct from 'matched';
  insert into bank_open_entries (batch_id, position, received_at, partner_id, bank_reference_id, amount_cents)
  select n.batch_id, n.position, b.created_at, b.partner_id, n.bank_reference_id, n.amount_cents
  from new_rows n
  join remittance_batches b on b.id = n.batch_id
  where n.outcome = 'matched'
    and not exists (select from bank_match_entries me where me.batch_id = n.batch_id and me.position = n.position and me.active)
  on conflict (batch_id, position) do nothing;
  return null;
end $$;
create trigger remittance_entries_reopen after update on remittance_entries
  referencing new table as new_rows for each statement execute function remittance_entries_reopen();

-- A match made: its entries are paid.
create function bank_match_entries_close() returns trigger language plpgsql as $$
begin
  delete from bank_open_entries o using new_rows n
  where o.batch_id = n.batch_id and o.position = n.position and n.active;
  return null;
end $$;
create trigger bank_match_entries_close after insert on bank_match_entries
  referencing new table as new_rows for each statement execute function bank_match_entries_close();

-- A match undone: its entries are open again unless another match holds them; a link made active again closes them.
create function bank_match_entries_reopen() returns trigger language plpgsql as $$
begin
  insert into bank_open_entries (batch_id, position, received_at, partner_id, bank_reference_id, amount_cents)
  select e.batch_id, e.position, b.created_at, b.partner_id, e.bank_reference_id, e.amount_cents
  from (select distinct n.batch_id, n.position
        from new_rows n join old_rows o on o.match_id = n.match_id and o.batch_id = n.batch_id and o.position = n.position
        where o.active and not n.active) undone
  join remittance_entries e on e.batch_id = undone.batch_id and e.position = undone.position
  join remittance_batches b on b.id = e.batch_id
  where e.outcome = 'matched'
    and not exists (select from bank_match_entries me where me.batch_id = e.batch_id and me.position = e.position and me.active)
  on conflict (batch_id, position) do nothing;
  delete from bank_open_entries o using new_rows n, old_rows p
  where o.batch_id = n.batch_id and o.position = n.position and n.active
    and p.match_id = n.match_id and p.batch_id = n.batch_id and p.position = n.position and not p.active;
  return null;
end $$;
create trigger bank_match_entries_reopen after update on bank_match_entries
  referencing old table as old_rows new table as new_rows for each statement execute function bank_match_entries_reopen();
