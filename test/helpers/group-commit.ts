import { sql } from 'kysely';
import type { TestApp } from './test-app.js';

/** The METRICS_TOKEN the group-commit tests start their apps with, to read group sizes from /metrics. */
export const GROUP_METRICS_TOKEN = 'metrics-token-for-group-commit-tests';

/** Groups written so far and rows in them, from the app's own /metrics histogram `metric`. */
export async function groupSizes(t: TestApp, metric: 'donation_group_commit_rows' | 'mandate_group_commit_rows') {
  const response = await t.app.inject({
    method: 'GET',
    url: '/metrics',
    headers: { authorization: `Bearer ${GROUP_METRICS_TOKEN}` },
  });
  const value = (name: string) => Number(new RegExp(`^${name} (\\d+)`, 'm').exec(response.body)?.[1] ?? NaN);
  return { count: value(`${metric}_count`), rows: value(`${metric}_sum`) };
}

/**
 * A real database error for chosen rows only: a trigger on `table` raises "poisoned row" for every new row whose
 * `column` starts with "poison".
 */
export async function refusePoisonedRows(t: TestApp, table: 'donations' | 'mandates', column: string) {
  await sql`create function ${sql.raw(`refuse_poisoned_${table}`)}() returns trigger language plpgsql as ${sql.lit(`
    begin
      if new.${column} like 'poison%' then raise exception 'poisoned row'; end if;
      return new;
    end`)}`.execute(t.db);
  await sql`create trigger refuse_poisoned before insert on ${sql.table(table)}
    for each row execute function ${sql.raw(`refuse_poisoned_${table}`)}()`.execute(t.db);
}
