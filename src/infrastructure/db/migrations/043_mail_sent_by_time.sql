-- The outbox's count of sent messages covers the last days only (docs/decisions/0074-operators-counts-of-the-history-bounded.md),
-- read through this index: the count of every message ever sent read the whole outbox on each look at it.
create index mail_outbox_sent_at_idx on mail_outbox (sent_at) where status = 'sent';
