-- A round claims its donations in one set-based statement (docs/decisions/0063-grant-round-cut-off-and-fee-rounding.md):
-- a million claims ran two foreign-key triggers each, two thirds of a large round's drafting. Rows of grant_items and
-- grant_recoveries are written only by that statement, from donations and reversals it reads and the round's own
-- lines in the same transaction, and deleted only with the draft's lines (cancel); donations, reversals and grants
-- are never deleted. The keys stay: a donation is granted once, a reversal recovered once.
alter table grant_items drop constraint grant_items_donation_id_fkey;
alter table grant_items drop constraint grant_items_grant_id_fkey;
