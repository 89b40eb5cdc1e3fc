import { loadConfig } from '../src/config/index.js';
import { openDatabase } from '../src/composition.js';
import { importAccounts } from '../src/services/operators/reference-data/import-accounts.js';
import { bankDetailsSettings } from '../src/services/grants/bank-details/settings.js';
import type { BenchDatabase } from './database.js';

export const IMPORT_ROWS = 20_000;
const IMPORTS = 3;

export interface ImportResult {
  rows: number;
  /** The slowest of the imports (the first creates every account, the others update them). */
  ms: number;
  runsMs: number[];
  error: string | null;
}

/** A CRM export of `rows` accounts with one Storefront App product each, as an operator would import it. */
function csvFile(rows: number): string {
  const lines = ['memberNumber,name,channel,status,description,donationAmounts,enrollmentStatus'];
  for (let i = 0; i < rows; i += 1)
    lines.push(`${30_000_000 + i},Club ${i},Storefront App,Activated,Juniors kit appeal,5;10;20,Enrollment Validated`);
  return `${lines.join('\n')}\n`;
}

/**
 * `fundraiser-admin accounts import` without the process start: the same service call on the bench database, once
 * the service has stopped (an embedded data directory has one owner at a time).
 */
export async function measureImport(database: BenchDatabase): Promise<ImportResult> {
  const config = loadConfig(
    database.kind === 'postgres' ? { DATABASE_URL: database.url } : { DATA_DIR: database.dataDir },
  );
  const opened = await openDatabase(config);
  const content = csvFile(IMPORT_ROWS);
  const runsMs: number[] = [];
  try {
    for (let i = 0; i < IMPORTS; i += 1) {
      const started = performance.now();
      const summary = await importAccounts(
        { db: opened.db, operator: 'bench', now: () => new Date() },
        { fileName: 'accounts.csv', content, bankSettings: bankDetailsSettings(config) },
      );
      runsMs.push(performance.now() - started);
      if (summary.created + summary.updated !== IMPORT_ROWS)
        return {
          rows: IMPORT_ROWS,
          ms: Math.max(...runsMs),
          runsMs,
          error: `imported ${summary.created + summary.updated} rows`,
        };
    }
    return { rows: IMPORT_ROWS, ms: Math.max(...runsMs), runsMs, error: null };
  } catch (err) {
    return { rows: IMPORT_ROWS, ms: 0, runsMs, error: err instanceof Error ? err.message : String(err) };
  } finally {
    await opened.close();
  }
}
