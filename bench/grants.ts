import { loadConfig } from '../src/config/index.js';
import { connectDatabase } from '../src/infrastructure/db/connect.js';
import { migrate } from '../src/infrastructure/db/migrate.js';
import { draftRound } from '../src/services/grants/rounds/draft.js';
import { roundTerms } from '../src/services/grants/rounds/terms.js';
import { addDays, dateIn } from '../src/domain/calendar-date.js';
import type { BenchDatabase } from './database.js';
import { loadGrantData } from './grant-data.js';
import type { Row, Target } from './report.js';

/** The grants phase (BENCH_ONLY=grants): a round drafted over 10,000 clubs and 1,000,000 settled donations. */
export const GRANT_CLUBS = 10_000;
export const GRANT_DONATIONS_PER_CLUB = 100;
const AMOUNT_CENTS = 2_500;

export interface GrantsResult {
  loadMs: number;
  draftMs: number;
  grants: number;
  totalCents: string;
  expectedCents: string;
}

/**
 * Loads the clubs (verified bank details) and their settled donations straight into the tables, then times one
 * draft of a round paying them all, on the bench's own connection to the database (no service: drafting is the
 * schedule job's work, one transaction).
 */
export async function measureGrantRound(database: BenchDatabase, progress: (m: string) => void): Promise<GrantsResult> {
  const config = loadConfig({ LOG_LEVEL: 'silent' });
  const connection =
    database.kind === 'postgres'
      ? await connectDatabase({ databaseUrl: database.url, statementTimeoutMs: 600_000 })
      : await connectDatabase({ dataDir: database.dataDir });
  try {
    await migrate(connection);
    progress(`grants: loading ${GRANT_CLUBS} clubs and ${GRANT_CLUBS * GRANT_DONATIONS_PER_CLUB} settled donations`);
    const loadStarted = Date.now();
    await loadGrantData(connection.db, {
      clubs: GRANT_CLUBS,
      donationsPerClub: GRANT_DONATIONS_PER_CLUB,
      amountCents: AMOUNT_CENTS,
      environment: config.APP_ENV,
      tag: 'B',
    });
    const loadMs = Date.now() - loadStarted;
    progress(`grants: loaded in ${(loadMs / 1000).toFixed(1)} s; drafting`);
    const at = new Date();
    const started = performance.now();
    const { round } = await draftRound(connection.db, roundTerms(config), {
      scheduledOn: null,
      cutoffDay: addDays(dateIn(at, config.FOUNDATION_TIME_ZONE), 1),
      by: 'bench',
      at,
    });
    const draftMs = performance.now() - started;
    return {
      loadMs,
      draftMs,
      grants: round.grant_count,
      totalCents: String(round.total_cents),
      expectedCents: String(GRANT_CLUBS * GRANT_DONATIONS_PER_CLUB * AMOUNT_CENTS),
    };
  } finally {
    await connection.close();
  }
}

const description = 'grant round for 10,000 clubs over 1,000,000 donations drafted ≤ 10 s on PostgreSQL';

export function grantRows(result: GrantsResult): Row[] {
  return [
    {
      workload: 'grants: 1,000,000 settled donations loaded (INSERT … SELECT generate_series)',
      p50: `${(result.loadMs / 1000).toFixed(1)} s`,
    },
    { workload: 'grants: round drafted (10,000 clubs)', p50: `${(result.draftMs / 1000).toFixed(2)} s` },
  ];
}

export function grantTargets(kind: 'postgres' | 'embedded', result: GrantsResult): Target[] {
  const right = result.grants === GRANT_CLUBS && result.totalCents === result.expectedCents;
  return [
    {
      description,
      met: kind === 'postgres' ? right && result.draftMs <= 10_000 : null,
      actual:
        `${(result.draftMs / 1000).toFixed(2)} s; ${result.grants} grants, total ${result.totalCents} cents ` +
        `(expected ${result.expectedCents})`,
    },
  ];
}
