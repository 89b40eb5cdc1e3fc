import { sql } from 'kysely';
import { loadConfig } from '../../src/config/index.js';
import { openDatabase } from '../../src/composition.js';
import { issueCredential } from '../../src/services/issue-credential.js';
import type { BenchDatabase } from '../database.js';
import { startService } from '../service.js';
import type { Credentials } from '../workloads.js';
import { loadHistory, type HistoryLoad } from './load.js';

/** BENCH_HISTORY_SCALE: the history's size against the issue's three seasons (1: 5,000,000 donations). */
export const HISTORY_SCALE = Number(process.env.BENCH_HISTORY_SCALE ?? 1);

/**
 * A database as the service leaves it at its first start (migrated, the demo partners and their credentials), then
 * stopped, and the history loaded into it: the bench's partner becomes one of the history's 40 partners. Returns
 * the demo credentials the service printed (a restart no longer shows them).
 */
export async function prepareDatabase(options: {
  repoRoot: string;
  workDir: string;
  database: BenchDatabase;
  name: string;
  withHistory: boolean;
  progress: (message: string) => void;
}): Promise<{ credentials: Credentials; load: HistoryLoad | null }> {
  const { database, progress } = options;
  progress(`${options.name}: first start of the service (migrations, demo data)`);
  const first = await startService({ ...options, logName: `service-${options.name}-first.log` });
  const { credentials } = first;
  await first.stop();
  if (!options.withHistory) return { credentials, load: null };
  if (database.kind !== 'postgres') throw new Error('the history is loaded on PostgreSQL only');
  progress(`${options.name}: loading the history at scale ${HISTORY_SCALE} by COPY`);
  const load = await loadHistory(database.url, HISTORY_SCALE, progress);
  progress(`${options.name}: history loaded in ${(load.totalMs / 1000).toFixed(0)} s`);
  return { credentials, load };
}

/**
 * BENCH_HISTORY_URL: a history database loaded by an earlier run (kept with BENCH_KEEP_DATABASE), used again without
 * loading it (the load is most of a run on a busy machine). The run's own work is added to it; the credentials are
 * a fresh sandbox pair of the bench's partner.
 */
export async function reuseHistory(url: string): Promise<{ database: BenchDatabase; credentials: Credentials }> {
  const opened = await openDatabase(loadConfig({ DATABASE_URL: url }));
  try {
    const { rows } = await sql<{ partner_id: string; environment: 'sit' }>`
      select c.partner_id, c.environment from credentials c
      join partner_channels pc on pc.partner_id = c.partner_id and pc.channel = 'Storefront App'
      order by c.created_at limit 1`.execute(opened.db);
    if (!rows[0]) throw new Error(`BENCH_HISTORY_URL: no Storefront App partner in ${new URL(url).pathname}`);
    const issued = await issueCredential(opened.db, rows[0].partner_id, rows[0].environment);
    const database: BenchDatabase = {
      kind: 'postgres',
      url,
      location: `history database ${new URL(url).pathname.slice(1)} loaded before`,
      drop: async () => {},
    };
    return { database, credentials: { clientId: issued.clientId, clientSecret: issued.clientSecret } };
  } finally {
    await opened.close();
  }
}
