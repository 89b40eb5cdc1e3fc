-- The operators' debit views (console /console/debits, `fundraiser-admin debits list`) read a page of the newest
-- failed, the newest disputed or the oldest processing debits: through these, in the view's own order, instead of
-- every debit ever collected, sorted (docs/decisions/0074-operators-listings-by-key.md).
create index debits_failed_view_idx on debits (updated_at desc, id) where status = 'failed';
create index debits_disputed_view_idx on debits (disputed_at desc, id) where disputed_at is not null;
create index debits_processing_view_idx on debits (submitted_at, id) where status = 'processing';
