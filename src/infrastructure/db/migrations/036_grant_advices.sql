-- Remittance advices and recipient-created tax invoices of paid grants (docs/grants.md, "Advice and RCTI").

-- Who issued a grant's advice, under which terms: the receipts' issuer row of the foundation's identity when the
-- advice was issued, so that the advice sent again (or downloaded) later says what the first one said.
alter table grants add column advice_issuer_id bigint references receipt_issuers (id);
-- Issued outside production: the advice is marked as a sample, as receipts are.
alter table grants add column advice_sample boolean not null default false;

-- The paid grants whose advice is not issued yet (a club without a finance contact waits here).
create index grants_unadvised_idx on grants (account_id) where status = 'paid' and advised_at is null;

-- The one series of recipient-created tax invoices: `next` is the number the next invoice takes. Its row is locked by
-- the transaction that issues advices until it commits, so a rolled-back issue gives its numbers back (no gaps).
insert into rcti_counters (series, next) values ('RCTI', 1) on conflict (series) do nothing;
