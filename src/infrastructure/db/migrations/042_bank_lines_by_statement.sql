-- A statement's own lines, read when it is imported (the grants' confirmations and returns look at the lines of the
-- statement just imported): by its id, not by reading every line ever imported.
create index bank_lines_statement_idx on bank_lines (statement_id, id);
