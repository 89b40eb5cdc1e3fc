-- Indexes for what operators list and count, read by key a page at a time
-- (docs/decisions/0074-operators-listings-by-key.md): each page or figure reads what it shows, not the history.

-- The mail outbox page counts the messages sent in its last days: by this index, the days' messages only, where a
-- count of every message ever sent grew with each receipt.
create index mail_outbox_sent_idx on mail_outbox (sent_at) where status = 'sent';
-- The audit log read newest first after a page's last (at, id): one range of this index, read backwards, per page.
create index audit_log_at_id_idx on audit_log (at, id);
