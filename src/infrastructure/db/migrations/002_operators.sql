-- Support look-ups and the audit trail of the operator CLI (fundraiser-admin).

-- "Where is this donation?" by the partner's own transaction id, whichever partner or channel sent it.
create index donations_transaction_id_idx on donations (transaction_id) where transaction_id is not null;

-- The audit trail is read newest first, as a whole or for one subject (a partner, a credential, an account).
create index audit_log_at_idx on audit_log (at desc);
create index audit_log_subject_idx on audit_log (subject, at desc);
