-- The partner request log's counts (docs/decisions/0092-successful-reads-counted-not-itemised.md): every partner API
-- request counted per partner, minute, route and status, whether or not it has a row of its own in
-- partner_requests. A successful read (GET) is counted only, by default: at read-heavy rates its row, masked body and
-- four index entries cost more than the answer itself, and what an engineer looks for in the log is a failure or a
-- change. The portal's usage figures come from here: a day of a busy partner is a few thousand rows, not millions.
--
-- The environment is '' when the request's credential named none (a refused call), so that it can be in the key.
create table partner_request_counts (
  partner_id        uuid not null,
  minute            timestamptz not null,
  environment       text not null,
  method            text not null,
  route             text not null,
  status            smallint not null,
  requests          integer not null,
  latency_us_total  bigint not null,
  latency_us_max    integer not null,
  primary key (partner_id, minute, method, route, status, environment)
);

-- The pruning's walk, oldest first, across every partner.
create index partner_request_counts_minute_idx on partner_request_counts (minute);
