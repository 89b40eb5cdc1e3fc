-- Grant rounds as drafted (docs/grants.md, "Drafting"; docs/decisions/0063-grant-round-cut-off-and-fee-rounding.md).

-- The newest reversal of a donation already netted off the amount it was granted with: a later reversal (a higher
-- seq) is what a following round recovers from the club; one at or below it was never paid, so never recovered.
-- A donation's reversals are written under its row lock, so their seq follows the order they commit in.
alter table grant_items add column reversal_seq bigint not null default 0;

