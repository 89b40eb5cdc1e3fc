-- The references written in bulk (a batch's entries, their claims and settlements, a statement's lines and match
-- links) are checked once per statement instead of once per row
-- (docs/decisions/0050-references-checked-per-statement.md): a foreign key checks each inserted row on its own,
-- which was half of the time of a 100,000-entry batch's inserts and ~3 s of a 100,000-line statement's matching.
-- The rule stays the database's: an inserted row names rows that exist (checked at the statement's end, as the
-- foreign keys were), a referenced row is never deleted, no key changes.

-- Every inserted row's references exist: one anti-join per statement and reference, over the statement's rows.
-- Static queries (not dynamic SQL) so that each session plans them once: a 20-row insert costs what its foreign
-- key cost.
create function remittance_entries_references_exist() returns trigger language plpgsql as $$
declare
  missing text;
begin
  select n.batch_id::text into missing from new_rows n
  where not exists (select from remittance_batches b where b.id = n.batch_id) limit 1;
  if found then
    raise foreign_key_violation using
      message = format('remittance entry names batch %s, which does not exist', missing);
  end if;
  return null;
end $$;
create trigger remittance_entries_references_exist after insert on remittance_entries
  referencing new table as new_rows for each statement execute function remittance_entries_references_exist();

create function remittance_bank_references_references_exist() returns trigger language plpgsql as $$
declare
  missing text;
begin
  select n.batch_id || ':' || n.position into missing from new_rows n
  where not exists (select from remittance_entries e where e.batch_id = n.batch_id and e.position = n.position) limit 1;
  if found then
    raise foreign_key_violation using
      message = format('bank reference claim names entry %s, which does not exist', missing);
  end if;
  return null;
end $$;
create trigger remittance_bank_references_references_exist after insert on remittance_bank_references
  referencing new table as new_rows for each statement execute function remittance_bank_references_references_exist();

create function bank_match_lines_references_exist() returns trigger language plpgsql as $$
declare
  missing text;
begin
  select n.match_id::text into missing from new_rows n
  where not exists (select from bank_matches m where m.id = n.match_id) limit 1;
  if found then
    raise foreign_key_violation using
      message = format('match link names match %s, which does not exist', missing);
  end if;
  select n.line_id::text into missing from new_rows n
  where not exists (select from bank_lines l where l.id = n.line_id) limit 1;
  if found then
    raise foreign_key_violation using
      message = format('match link names bank line %s, which does not exist', missing);
  end if;
  return null;
end $$;
create trigger bank_match_lines_references_exist after insert on bank_match_lines
  referencing new table as new_rows for each statement execute function bank_match_lines_references_exist();

create function bank_match_entries_references_exist() returns trigger language plpgsql as $$
declare
  missing text;
begin
  select n.match_id::text into missing from new_rows n
  where not exists (select from bank_matches m where m.id = n.match_id) limit 1;
  if found then
    raise foreign_key_violation using
      message = format('match link names match %s, which does not exist', missing);
  end if;
  select n.batch_id || ':' || n.position into missing from new_rows n
  where not exists (select from remittance_entries e where e.batch_id = n.batch_id and e.position = n.position) limit 1;
  if found then
    raise foreign_key_violation using
      message = format('match link names entry %s, which does not exist', missing);
  end if;
  return null;
end $$;
create trigger bank_match_entries_references_exist after insert on bank_match_entries
  referencing new table as new_rows for each statement execute function bank_match_entries_references_exist();

create function bank_lines_references_exist() returns trigger language plpgsql as $$
declare
  missing text;
begin
  select n.statement_id::text into missing from new_rows n
  where not exists (select from bank_statements s where s.id = n.statement_id) limit 1;
  if found then
    raise foreign_key_violation using
      message = format('bank line names statement %s, which does not exist', missing);
  end if;
  return null;
end $$;
create trigger bank_lines_references_exist after insert on bank_lines
  referencing new table as new_rows for each statement execute function bank_lines_references_exist();

create function donation_settlements_references_exist() returns trigger language plpgsql as $$
declare
  missing text;
begin
  select n.donation_id::text into missing from new_rows n
  where not exists (select from donations d where d.id = n.donation_id) limit 1;
  if found then
    raise foreign_key_violation using
      message = format('settlement names donation %s, which does not exist', missing);
  end if;
  -- A debit's settlement names no bank reference (a null key references nothing, as with the foreign key).
  select n.bank_reference_id into missing from new_rows n
  where n.bank_reference_id is not null
    and not exists (select from remittance_bank_references c
                    where (c.partner_id, c.environment, c.bank_reference_id)
                          = (n.partner_id, n.environment, n.bank_reference_id))
  limit 1;
  if found then
    raise foreign_key_violation using
      message = format('settlement names bank reference %s, which is not claimed', missing);
  end if;
  return null;
end $$;
create trigger donation_settlements_references_exist after insert on donation_settlements
  referencing new table as new_rows for each statement execute function donation_settlements_references_exist();

alter table remittance_entries drop constraint remittance_entries_batch_id_fkey;
alter table remittance_bank_references drop constraint remittance_bank_references_batch_id_position_fkey;
alter table bank_match_lines drop constraint bank_match_lines_match_id_fkey;
alter table bank_match_lines drop constraint bank_match_lines_line_id_fkey;
alter table bank_match_entries drop constraint bank_match_entries_match_id_fkey;
alter table bank_match_entries drop constraint bank_match_entries_batch_id_position_fkey;
alter table bank_lines drop constraint bank_lines_statement_id_fkey;
alter table donation_settlements drop constraint donation_settlements_donation_id_fkey;
alter table donation_settlements drop constraint donation_settlements_partner_id_environment_bank_reference_fkey;

-- A referenced row is never deleted (the service deletes none of these rows; a batch's entries no longer go with it:
-- deleting a batch is refused while it has entries). Checked once per statement; nothing deletes them, so dynamic
-- SQL serves every table. TG_ARGV: the referencing table, its columns, then the columns they name in this table.
create function refuse_deleting_referenced_rows() returns trigger language plpgsql as $$
declare
  referencing text[] := string_to_array(tg_argv[1], ',');
  referenced text[] := string_to_array(tg_argv[2], ',');
  condition text;
  still text;
begin
  select string_agg(format('r.%I = o.%I', referencing[i], referenced[i]), ' and ') into condition
  from generate_subscripts(referencing, 1) as i;
  execute format('select o::text from old_rows o where exists (select from %I r where %s) limit 1',
    tg_argv[0], condition)
    into still;
  if still is not null then
    raise foreign_key_violation using
      message = format('%s row %s is still referenced from %s', tg_table_name, still, tg_argv[0]);
  end if;
  return null;
end $$;
create trigger remittance_batches_referenced after delete on remittance_batches
  referencing old table as old_rows for each statement
  execute function refuse_deleting_referenced_rows('remittance_entries', 'batch_id', 'id');
create trigger remittance_entries_referenced_by_claims after delete on remittance_entries
  referencing old table as old_rows for each statement
  execute function refuse_deleting_referenced_rows('remittance_bank_references', 'batch_id,position',
    'batch_id,position');
create trigger remittance_entries_referenced_by_matches after delete on remittance_entries
  referencing old table as old_rows for each statement
  execute function refuse_deleting_referenced_rows('bank_match_entries', 'batch_id,position', 'batch_id,position');
create trigger bank_matches_referenced_by_lines after delete on bank_matches
  referencing old table as old_rows for each statement
  execute function refuse_deleting_referenced_rows('bank_match_lines', 'match_id', 'id');
create trigger bank_matches_referenced_by_entries after delete on bank_matches
  referencing old table as old_rows for each statement
  execute function refuse_deleting_referenced_rows('bank_match_entries', 'match_id', 'id');
create trigger bank_lines_referenced after delete on bank_lines
  referencing old table as old_rows for each statement
  execute function refuse_deleting_referenced_rows('bank_match_lines', 'line_id', 'id');
create trigger bank_statements_referenced after delete on bank_statements
  referencing old table as old_rows for each statement
  execute function refuse_deleting_referenced_rows('bank_lines', 'statement_id', 'id');
create trigger donations_referenced_by_settlements after delete on donations
  referencing old table as old_rows for each statement
  execute function refuse_deleting_referenced_rows('donation_settlements', 'donation_id', 'id');
create trigger remittance_bank_references_referenced after delete on remittance_bank_references
  referencing old table as old_rows for each statement
  execute function refuse_deleting_referenced_rows('donation_settlements', 'partner_id,environment,bank_reference_id',
    'partner_id,environment,bank_reference_id');

-- No key on either side of these references changes (none ever does): an update that would change one is refused,
-- so that nothing needs checking again. Fires only for updates that set those columns, and after the row is
-- updated: a before-update row trigger makes every update of the table lock and read its row first, whatever it
-- sets (each entry's outcome, each link's active flag).
create function refuse_key_change() returns trigger language plpgsql as $$
begin
  raise foreign_key_violation using
      message = format('the keys of %s rows never change (%s)', tg_table_name, tg_argv[0]);
end $$;
create trigger remittance_batches_key after update of id on remittance_batches for each row
  when (old.id is distinct from new.id) execute function refuse_key_change('id');
create trigger remittance_entries_key after update of batch_id, position on remittance_entries for each row
  when ((old.batch_id, old.position) is distinct from (new.batch_id, new.position))
  execute function refuse_key_change('batch_id, position');
create trigger remittance_bank_references_key
  after update of partner_id, environment, bank_reference_id, batch_id, position on remittance_bank_references
  for each row when ((old.partner_id, old.environment, old.bank_reference_id, old.batch_id, old.position)
                     is distinct from
                     (new.partner_id, new.environment, new.bank_reference_id, new.batch_id, new.position))
  execute function refuse_key_change('partner_id, environment, bank_reference_id, batch_id, position');
create trigger bank_matches_key after update of id on bank_matches for each row
  when (old.id is distinct from new.id) execute function refuse_key_change('id');
create trigger bank_lines_key after update of id on bank_lines for each row
  when (old.id is distinct from new.id) execute function refuse_key_change('id');
create trigger bank_match_lines_key after update of match_id, line_id on bank_match_lines for each row
  when ((old.match_id, old.line_id) is distinct from (new.match_id, new.line_id))
  execute function refuse_key_change('match_id, line_id');
create trigger bank_match_entries_key after update of match_id, batch_id, position on bank_match_entries
  for each row when ((old.match_id, old.batch_id, old.position)
                     is distinct from (new.match_id, new.batch_id, new.position))
  execute function refuse_key_change('match_id, batch_id, position');
create trigger bank_statements_key after update of id on bank_statements for each row
  when (old.id is distinct from new.id) execute function refuse_key_change('id');
create trigger bank_lines_statement_key after update of statement_id on bank_lines for each row
  when (old.statement_id is distinct from new.statement_id) execute function refuse_key_change('statement_id');
create trigger donations_key after update of id on donations for each row
  when (old.id is distinct from new.id) execute function refuse_key_change('id');
create trigger donation_settlements_key
  after update of donation_id, partner_id, environment, bank_reference_id on donation_settlements for each row
  when ((old.donation_id, old.partner_id, old.environment, old.bank_reference_id)
        is distinct from (new.donation_id, new.partner_id, new.environment, new.bank_reference_id))
  execute function refuse_key_change('donation_id, partner_id, environment, bank_reference_id');
