-- A statement's lines by statement and booking date: the statements' list shows the dates each statement's lines
-- span (min and max of booked_on per statement). With only (statement_id, id), PostgreSQL answered each min and max
-- by walking bank_lines_booked_idx from its end and filtering on the statement — every line ever imported, for every
-- statement listed: on three seasons (500,000 lines, 1,096 statements) the console's bank page timed out
-- (docs/performance/history.md). This index answers both ends from the statement's own range, and still serves the
-- reads of a statement's lines at import (migration 042), which it replaces.
create index bank_lines_statement_booked_idx on bank_lines (statement_id, booked_on);
drop index bank_lines_statement_idx;
