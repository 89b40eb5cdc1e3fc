-- The partner request log (docs/decisions/0087-request-log-one-table-pruned-in-chunks.md): one row per partner API
-- request, written in batches off the request path, kept PARTNER_REQUEST_LOG_DAYS and pruned in bounded chunks by a
-- job. One plain table, not daily partitions: the embedded database runs the same statements, and a delete of a few
-- thousand rows by `at` is cheap next to the partitions' creation ahead of time.
--
-- No foreign key to partners: a batch of a hundred requests must not fail because one partner was removed meanwhile;
-- its rows go with the pruning. Bodies are text, already masked and capped by the writer (decision 0088): stored as
-- written, never parsed again by the database.
create table partner_requests (
  id              bigint generated always as identity primary key,
  partner_id      uuid not null,
  at              timestamptz not null,
  method          text not null,
  route           text not null,
  status          smallint not null,
  error_code      text,
  error_cause     text,
  latency_us      integer not null,
  correlation_id  text not null,
  client_id       text,
  environment     text,
  request_body    text,
  response_body   text
);

-- The portal's searches, newest first, each with the id as the tie-breaker of its keyset pagination. Every index is
-- paid for by every request the log writes (docs/performance/request-log.md), so there are three: the partner's
-- requests by time (a route's are filtered along it), a correlation id's, and the failed ones by status — what an
-- engineer searches for, and a small part of the traffic, hence partial.
create index partner_requests_partner_at_idx on partner_requests (partner_id, at desc, id desc);
create index partner_requests_correlation_idx on partner_requests (partner_id, correlation_id);
create index partner_requests_failed_idx on partner_requests (partner_id, status, at desc, id desc) where status >= 400;
-- The pruning's walk, oldest first, across every partner.
create index partner_requests_at_idx on partner_requests (at);
