-- The console dashboard's figures kept per UTC day as donations and reversals are written
-- (docs/decisions/0090-dashboard-rollup-and-due-debits-on-history.md): the dashboard reads 14 days of these rows,
-- whatever the traffic of those days and the age of the database, where it counted the donations themselves.

-- Donations per UTC day of created_at, partner and channel. Donations are never deleted and never change their
-- partner, channel, amount or creation time, so an insert is the only write that moves these figures.
create table daily_donations (
  day         date not null,
  partner_id  uuid not null references partners (id),
  channel     text not null,
  count       bigint not null,
  total_cents bigint not null,
  primary key (day, partner_id, channel)
);

-- Statement-level, over the rows the statement inserted: a group commit's multi-row INSERT (and its
-- ON CONFLICT DO NOTHING, whose skipped rows are not in the transition table) costs one upsert per
-- (day, partner, channel) it touched, in the INSERT's transaction.
create function daily_donations_add() returns trigger language plpgsql as $$
begin
  insert into daily_donations (day, partner_id, channel, count, total_cents)
  select (created_at at time zone 'UTC')::date, partner_id, channel, count(*), coalesce(sum(amount_cents), 0)
  from added
  group by 1, 2, 3
  -- The same key order in every transaction: two concurrent statements touching the same keys never deadlock.
  order by 1, 2, 3
  on conflict (day, partner_id, channel) do update
    set count = daily_donations.count + excluded.count,
        total_cents = daily_donations.total_cents + excluded.total_cents;
  return null;
end $$;

create trigger donations_daily after insert on donations
  referencing new table as added for each statement execute function daily_donations_add();

insert into daily_donations (day, partner_id, channel, count, total_cents)
select (created_at at time zone 'UTC')::date, partner_id, channel, count(*), coalesce(sum(amount_cents), 0)
from donations
group by 1, 2, 3;

-- Reversals per UTC day of created_at (the dashboard shows the count and amount of its days' reversals). Reversals
-- are never deleted and their amount and time never change.
create table daily_reversals (
  day         date primary key,
  count       bigint not null,
  total_cents bigint not null
);

create function daily_reversals_add() returns trigger language plpgsql as $$
begin
  insert into daily_reversals (day, count, total_cents)
  select (created_at at time zone 'UTC')::date, count(*), coalesce(sum(amount_cents), 0)
  from added
  group by 1
  order by 1
  on conflict (day) do update
    set count = daily_reversals.count + excluded.count,
        total_cents = daily_reversals.total_cents + excluded.total_cents;
  return null;
end $$;

create trigger donation_reversals_daily after insert on donation_reversals
  referencing new table as added for each statement execute function daily_reversals_add();

insert into daily_reversals (day, count, total_cents)
select (created_at at time zone 'UTC')::date, count(*), coalesce(sum(amount_cents), 0)
from donation_reversals
group by 1;
