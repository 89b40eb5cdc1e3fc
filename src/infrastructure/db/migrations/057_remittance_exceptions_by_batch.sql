-- A batch's exceptions by the batch: the latest exceptions across batches (the console's dashboard, `fundraiser-admin
-- remittances entries --exceptions`) are read by walking the batches newest first and asking each whether it has
-- one, then reading only the few batches shown. Through (outcome, batch_id) alone, every exception of the range was
-- read and sorted to show ten: 200,000 exceptions of one bad month made the dashboard 28 times slower
-- (docs/performance/history.md).
create index remittance_entries_exceptions_by_batch_idx on remittance_entries (batch_id, position)
  where outcome is not null and outcome <> 'matched';
