-- The credit lines that pay nothing at the moment, as a work list kept by the transactions that change it
-- (docs/decisions/0076-bank-matching-on-open-lines.md). The automatic rule and the suggestions read these rows
-- instead of every credit line ever imported, anti-joined against every match link ever made: that read grew with
-- the history (a 20,000-line statement's matching went from 2.9 s to 6.6 s in 30 minutes of soak).
create table bank_open_lines (
  line_id       bigint primary key,
  booked_on     text not null,
  amount_cents  bigint not null,
  tokens        text[] not null,
  -- Never matched: only such a line is matched automatically; one whose match an operator undid waits for an
  -- operator again (suggestions).
  never_matched boolean not null
);
create index bank_open_lines_booked_idx on bank_open_lines (booked_on, line_id);

insert into bank_open_lines (line_id, booked_on, amount_cents, tokens, never_matched)
select l.id, l.booked_on, l.amount_cents, l.tokens, not exists (select from bank_match_lines ml where ml.line_id = l.id)
from bank_lines l
where l.credit and not exists (select from bank_match_lines ml where ml.line_id = l.id and ml.active);

-- Kept by triggers, once per statement, so that every path (an import, the automatic rule, an operator's match
-- confirmed or undone) keeps it in the same transaction, whatever the code does.
create function bank_lines_open() returns trigger language plpgsql as $$
begin
  insert into bank_open_lines (line_id, booked_on, amount_cents, tokens, never_matched)
  select n.id, n.booked_on, n.amount_cents, n.tokens, true from new_rows n where n.credit;
  return null;
end $$;
create trigger bank_lines_open after insert on bank_lines
  referencing new table as new_rows for each statement execute function bank_lines_open();

create function bank_match_lines_close() returns trigger language plpgsql as $$
begin
  delete from bank_open_lines o using new_rows n where o.line_id = n.line_id and n.active;
  return null;
end $$;
create trigger bank_match_lines_close after insert on bank_match_lines
  referencing new table as new_rows for each statement execute function bank_match_lines_close();

-- A match undone: its lines are open again unless another match holds them.
create function bank_match_lines_reopen() returns trigger language plpgsql as $$
begin
  insert into bank_open_lines (line_id, booked_on, amount_cents, tokens, never_matched)
  select l.id, l.booked_on, l.amount_cents, l.tokens, false
  from (select distinct n.line_id
        from new_rows n join old_rows o on o.match_id = n.match_id and o.line_id = n.line_id
        where o.active and not n.active) undone
  join bank_lines l on l.id = undone.line_id
  where not exists (select from bank_match_lines ml where ml.line_id = l.id and ml.active)
  on conflict (line_id) do update set never_matched = false;
  delete from bank_open_lines o using new_rows n, old_rows p
  where o.line_id = n.line_id and n.active and p.match_id = n.match_id and p.line_id = n.line_id and not p.active;
  return null;
end $$;
create trigger bank_match_lines_reopen after update on bank_match_lines
  referencing old table as old_rows new table as new_rows for each statement execute function bank_match_lines_reopen();
