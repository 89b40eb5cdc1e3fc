import type pg from 'pg';
import { connectDatabase, type Database } from '../../src/infrastructure/db/connect.js';
import { createScratchPostgresDatabase } from '../helpers/scratch-postgres.js';
import { postgresTemplate } from '../helpers/templates.js';

/**
 * Plans of the statements the service runs, read on a database with a history: what a growing table would cost if
 * a statement scanned it. PostgreSQL only (the embedded database has no other plans to read).
 */

/** Tables that grow with every donation, batch, statement, event or operator action, and are never emptied. */
const GROWING_TABLES = [
  'donations',
  'donation_settlements',
  'remittance_batches',
  'remittance_entries',
  'remittance_bank_references',
  'receipts',
  'mail_outbox',
  'bank_lines',
  'bank_match_lines',
  'bank_match_entries',
  'bank_matches',
  'webhook_events',
  'webhook_deliveries',
  'audit_log',
  'debits',
] as const;

export interface RecordedPlan {
  text: string;
  plan: PlanNode;
}

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Index Cond'?: string;
  Plans?: PlanNode[];
}

/** Every node of a recorded statement's plan that reads `table`, by whatever path. */
export function nodesReading(plans: readonly RecordedPlan[], table: string): PlanNode[] {
  const nodes = (node: PlanNode): PlanNode[] => [
    ...(node['Relation Name'] === table ? [node] : []),
    ...(node.Plans ?? []).flatMap(nodes),
  ];
  return plans.flatMap(({ plan }) => nodes(plan));
}

/**
 * While `on`, every statement a connection runs that EXPLAIN accepts is explained first, with the same parameters,
 * on the same connection and in the same transaction (under a savepoint, so that a statement EXPLAIN refuses leaves
 * the transaction as it was): the plan PostgreSQL chose for the statement as it was about to run.
 */
export class PlanRecorder {
  on = false;
  readonly plans: RecordedPlan[] = [];
  readonly refused: { text: string; error: string }[] = [];

  /** Installs the recorder on a new connection (ConnectOptions.onConnect). */
  readonly attach = (client: pg.PoolClient): void => {
    const query = client.query.bind(client) as (...args: unknown[]) => Promise<pg.QueryResult>;
    const status = () => (client as unknown as { _txStatus?: string })._txStatus;
    const wrapped = async (text: unknown, values?: unknown, callback?: unknown) => {
      if (!this.on || typeof text !== 'string' || callback !== undefined || typeof values === 'function')
        return query(text, values, callback);
      if (EXPLAINABLE.test(text) && !text.includes(';') && status() !== 'E') {
        const inTransaction = status() === 'T';
        if (inTransaction) await query('savepoint plan_probe');
        try {
          const { rows } = await query(`explain (format json) ${text}`, values);
          const [{ Plan }] = (rows[0] as { 'QUERY PLAN': [{ Plan: PlanNode }] })['QUERY PLAN'];
          this.plans.push({ text, plan: Plan });
          if (inTransaction) await query('release savepoint plan_probe');
        } catch (err) {
          this.refused.push({ text, error: (err as Error).message });
          if (inTransaction) await query('rollback to savepoint plan_probe');
        }
      }
      return query(text, values);
    };
    (client as unknown as { query: typeof wrapped }).query = wrapped;
  };

  /** Records what `work` runs. */
  async during(work: () => Promise<unknown>): Promise<RecordedPlan[]> {
    const from = this.plans.length;
    this.on = true;
    try {
      await work();
    } finally {
      this.on = false;
    }
    return this.plans.slice(from);
  }
}

const EXPLAINABLE = /^\s*(?:select|insert|update|delete|with|declare|create\s+temporary\s+table)\b/i;

/** Each recorded statement that scans a growing table from end to end, with the tables it scans. */
export function scansOfGrowingTables(plans: readonly RecordedPlan[]): { tables: string[]; text: string }[] {
  const growing = new Set<string>(GROWING_TABLES);
  const found: { tables: string[]; text: string }[] = [];
  for (const { text, plan } of plans) {
    const tables = seqScans(plan).filter((table) => growing.has(table));
    if (tables.length > 0) found.push({ tables, text: text.replace(/\s+/g, ' ').slice(0, 400) });
  }
  return found;
}

/** Every table a recorded statement reads or writes, by any access path. */
export function tablesRead(plans: readonly RecordedPlan[]): Set<string> {
  const relations = (node: PlanNode): string[] => [
    ...(node['Relation Name'] ? [node['Relation Name']] : []),
    ...(node.Plans ?? []).flatMap(relations),
  ];
  return new Set(plans.flatMap(({ plan }) => relations(plan)));
}

function seqScans(node: PlanNode): string[] {
  const own = node['Node Type'] === 'Seq Scan' && node['Relation Name'] ? [node['Relation Name']] : [];
  return [...own, ...(node.Plans ?? []).flatMap(seqScans)];
}

/** A fresh copy of the migrated template on TEST_DATABASE_URL's server, its connections recorded by `recorder`. */
export async function openRecordedDatabase(recorder: PlanRecorder): Promise<Database & { dispose(): Promise<void> }> {
  const scratch = await createScratchPostgresDatabase(process.env.TEST_DATABASE_URL!, 'fx_plans', postgresTemplate());
  // Unnamed statements: a statement prepared by name could be explained with a generic plan the run did not use.
  const database = await connectDatabase({
    databaseUrl: scratch.url,
    poolMax: 4,
    preparedStatementsMax: 0,
    // The history is written in a few statements of 100,000 rows each: seconds on an idle server, more on a busy one.
    statementTimeoutMs: 120_000,
    onConnect: recorder.attach,
  });
  return Object.assign(database, {
    async dispose() {
      try {
        await database.close();
      } finally {
        await scratch.drop();
      }
    },
  });
}

/** How much history `seedHistory` writes. */
export interface HistorySize {
  donations: number;
  /** Entries per remittance batch: donations / this batches. */
  entriesPerBatch: number;
  /** Bank lines, each matching one entry. */
  bankLines: number;
  auditEntries: number;
}

/** Enough that reading a table whole costs far more than its index (the plans change no further with more). */
export const DEFAULT_HISTORY: HistorySize = {
  donations: 100_000,
  entriesPerBatch: 100,
  bankLines: 50_000,
  auditEntries: 50_000,
};
