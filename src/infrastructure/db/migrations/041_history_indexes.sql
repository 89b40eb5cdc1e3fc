-- Indexes for statements that read a recent range of a table that grows with the history, found by the plan tests
-- (test/plans/): without them each read scanned the whole table.

-- Matching reads the batches received within its date bound (openEntriesReceivedBetween).
create index remittance_batches_created_idx on remittance_batches (created_at);
-- The console's dashboard reads the donations of its last days, every partner's.
create index donations_created_idx on donations (created_at);
