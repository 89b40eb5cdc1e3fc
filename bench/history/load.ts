import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { buildModel, dayOf, financialYear, HISTORY_DAYS, historySize, seeded, type HistoryModel } from './model.js';

/**
 * Loads the synthetic three-season history (bench/history/model.ts) into a migrated database by COPY FROM STDIN,
 * one table after another, in the shape the service writes: donations of 40 partners to 20,000 fundraisers, their
 * remittance batches, entries, bank references and settlements, receipts and their sent mail, the batches'
 * `remittance.completed` events, one-off debits on mandates, daily bank statements whose lines paid entries through
 * automatic matches (a few still open), and operators' audit entries. Every constraint and trigger of the schema
 * applies as it does to the service's writes (COPY fires the statement triggers that keep bank_open_lines and
 * check references). Ends with VACUUM ANALYZE, as autovacuum would have left a server that lived those years.
 */

const CHANNEL = 'Storefront App';
const BENCH_FUNDRAISER = '10000001';
const DAY_MS = 86_400_000;
/** Rows joined into one chunk of the COPY stream: large enough that the stream's overhead is small. */
const ROWS_PER_CHUNK = 2_000;

export interface TableLoad {
  table: string;
  rows: number;
  ms: number;
}

export interface HistoryLoad {
  tables: TableLoad[];
  totalMs: number;
  /** What the partner the bench measures (the demo Storefront App partner) holds of the history. */
  benchPartnerDonations: number;
}

/** `uuid` of a synthetic row: the kind in the first group, the index in the last (never a random collision). */
const uuidOf = (kind: number, i: number) =>
  `${kind.toString(16).padStart(8, '0')}-0000-4000-8000-${i.toString(16).padStart(12, '0')}`;
const BASE32 = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const base32 = (i: number, width: number) => {
  let s = '';
  for (let v = i; s.length < width; v = Math.floor(v / 32)) s = BASE32[v % 32]! + s;
  return s;
};
const donationRef = (i: number) => `DON-H${base32(i, 15)}`;
const memberOf = (f: number) => String(20_000_001 + f);
const iso = (ms: number) => new Date(ms).toISOString();
/** One COPY text-format row: tab-separated, \N for null (our values hold no tab, newline or backslash). */
const row = (values: (string | number | boolean | null)[]) =>
  `${values.map((v) => (v === null ? '\\N' : String(v))).join('\t')}\n`;

export async function loadHistory(
  url: string,
  scale: number,
  progress: (message: string) => void,
): Promise<HistoryLoad> {
  const started = performance.now();
  const size = historySize(scale);
  const nowMs = Date.now();
  const modelStarted = performance.now();
  const model = buildModel(size, nowMs);
  progress(`history: model of ${size.donations} donations, ${model.batches} batches in ${ms(modelStarted)} ms`);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  // A loader's session: index builds get memory, commits do not wait for the disk (a crash means loading again).
  await client.query(`set maintenance_work_mem = '256MB'; set synchronous_commit = off`);
  const tables: TableLoad[] = [];
  const copy = async (table: string, columns: string, rows: () => Iterable<string>) => {
    const t0 = performance.now();
    let count = 0;
    const chunks = function* () {
      let chunk = '';
      let inChunk = 0;
      for (const line of rows()) {
        chunk += line;
        count += 1;
        inChunk += 1;
        if (inChunk === ROWS_PER_CHUNK) {
          yield chunk;
          chunk = '';
          inChunk = 0;
        }
      }
      if (chunk) yield chunk;
    };
    const deferred = await deferChecks(client, table);
    await pipeline(Readable.from(chunks()), client.query(copyFrom(`copy ${table} (${columns}) from stdin`)));
    await deferred.restore();
    const load = { table, rows: count, ms: performance.now() - t0 };
    tables.push(load);
    progress(`history: ${table} ${count.toLocaleString('en-US')} rows in ${Math.round(load.ms)} ms`);
  };
  try {
    const owners = await ownersOf(client, size.partners);
    const accounts = await accountsOf(client, model);
    const state = await stateOf(client, owners[0]!);
    await copyHistory(copy, { model, owners, accounts, state }, nowMs);
    await finish(client, owners, state, tables);
  } finally {
    await client.end();
  }
  const benchPartnerDonations = model.partner.reduce((sum, p) => sum + (p === 0 ? 1 : 0), 0);
  return { tables, totalMs: performance.now() - started, benchPartnerDonations };
}

const ms = (from: number) => Math.round(performance.now() - from);

/**
 * A bulk load's usual order: a table's foreign keys and the indexes no constraint stands on are dropped before its
 * COPY and created again after it, so that each is built or validated once over the whole table instead of row by
 * row. Primary keys, unique constraints and checks stay, checked row by row; a unique index built again checks its
 * rows in bulk, and the foreign keys are added back validated: every row still satisfies every constraint.
 */
async function deferChecks(client: pg.Client, table: string): Promise<{ restore(): Promise<void> }> {
  const keys = await client.query<{ name: string; def: string }>(
    `select conname as name, pg_get_constraintdef(oid) as def from pg_constraint
     where conrelid = $1::regclass and contype = 'f'`,
    [table],
  );
  const indexes = await client.query<{ name: string; def: string }>(
    `select c.relname as name, pg_get_indexdef(i.indexrelid) as def from pg_index i join pg_class c on c.oid = i.indexrelid
     where i.indrelid = $1::regclass and not i.indisprimary
       and not exists (select from pg_constraint k where k.conindid = i.indexrelid)`,
    [table],
  );
  for (const key of keys.rows) await client.query(`alter table ${table} drop constraint ${key.name}`);
  for (const index of indexes.rows) await client.query(`drop index ${index.name}`);
  return {
    async restore() {
      for (const index of indexes.rows) await client.query(index.def);
      for (const key of keys.rows) await client.query(`alter table ${table} add constraint ${key.name} ${key.def}`);
    },
  };
}

interface Owner {
  id: string;
  environment: string;
}

/**
 * The partners: the demo Storefront App partner the bench signs in as (partner 0), then new ones up to `count`,
 * each on the Storefront App channel.
 */
async function ownersOf(client: pg.Client, count: number): Promise<Owner[]> {
  const { rows } = await client.query<{ partner_id: string; environment: string }>(
    `select c.partner_id, c.environment from credentials c
     join partner_channels pc on pc.partner_id = c.partner_id and pc.channel = $1
     order by c.created_at limit 1`,
    [CHANNEL],
  );
  const bench = rows[0];
  if (!bench) throw new Error('no Storefront App partner: start the service once on the database first');
  const owners: Owner[] = [{ id: bench.partner_id, environment: bench.environment }];
  for (let p = 1; p < count; p += 1) {
    const id = uuidOf(0xa0, p);
    await client.query(
      `insert into partners (id, name, quota_limit, quota_window_seconds, created_at)
       values ($1, $2, 10000, 60, now() - interval '3 years')`,
      [id, `History Partner ${String(p).padStart(2, '0')}`],
    );
    await client.query(`insert into partner_channels (partner_id, channel) values ($1, $2)`, [id, CHANNEL]);
    owners.push({ id, environment: bench.environment });
  }
  return owners;
}

/** The fundraisers (accounts with a Storefront App product), and the bench's own fundraiser as one of the big ones. */
async function accountsOf(client: pg.Client, model: HistoryModel): Promise<string[]> {
  const ids: string[] = [];
  const values: string[] = [];
  for (let f = 0; f < model.size.fundraisers; f += 1) ids.push(uuidOf(0xac, f));
  for (let from = 0; from < ids.length; from += 5_000) {
    values.length = 0;
    const chunk = ids.slice(from, from + 5_000);
    await client.query(
      `insert into accounts (id, member_number, name, created_at)
       select id, m, 'History Club ' || m, now() - interval '3 years'
       from unnest($1::uuid[], $2::text[]) as t(id, m)`,
      [chunk, chunk.map((_, k) => memberOf(from + k))],
    );
    await client.query(
      `insert into products (account_id, channel, status, product_enrollment_id)
       select id, $3, 'Activated', 'PE-' || m || '-SF' from unnest($1::uuid[], $2::text[]) as t(id, m)`,
      [chunk, chunk.map((_, k) => memberOf(from + k)), CHANNEL],
    );
  }
  const { rows } = await client.query<{ id: string }>('select id from accounts where member_number = $1', [
    BENCH_FUNDRAISER,
  ]);
  // The busiest fundraiser of the history is the one the bench's requests name.
  if (rows[0]) ids[0] = rows[0].id;
  return ids;
}

type Copy = (table: string, columns: string, rows: () => Iterable<string>) => Promise<void>;

/** What the copies share beside the model: the issuer, and the counters the service will carry on from. */
interface LoadState {
  issuerId: string;
  /** The bench partner's events before the history's (the demo data's): the history's are numbered after them. */
  eventBase: number;
  receiptCounters: Map<string, number>;
  lastSequence: Map<number, number>;
}

interface Loading {
  model: HistoryModel;
  owners: Owner[];
  accounts: string[];
  state: LoadState;
}

async function stateOf(client: pg.Client, bench: Owner): Promise<LoadState> {
  const issuer = await client.query<{ id: string }>(
    `insert into receipt_issuers (legal_name, abn, dgr_statement, minimum_cents, time_zone)
     values ('History Foundation', '51824753556', 'History', 200, 'Australia/Sydney') returning id`,
  );
  const events = await client.query<{ last: string | null }>(
    'select max(sequence) as last from webhook_events where partner_id = $1 and environment = $2',
    [bench.id, bench.environment],
  );
  return {
    issuerId: issuer.rows[0]!.id,
    eventBase: Number(events.rows[0]?.last ?? 0),
    receiptCounters: new Map(),
    lastSequence: new Map(),
  };
}

async function copyHistory(copy: Copy, loading: Loading, nowMs: number) {
  const { model, owners, accounts } = loading;
  const { size } = model;
  const member = (f: number) => (f === 0 ? BENCH_FUNDRAISER : memberOf(f));
  const donationId = (i: number) => uuidOf(0xd0, i);
  const batchId = (b: number) => uuidOf(0xba, b);
  const bankRef = (b: number, k: number) => `RM${base32(b, 6)}-${k}`;
  const settledMs = (b: number) => model.batchCreatedMs[b]! + 60_000;

  await copy(
    'donations',
    'id, reference_id, partner_id, environment, is_live, channel, account_id, fundraiser_id, donor_email, ' +
      'donor_first_name, donor_last_name, address_postal_code, transaction_id, amount_cents, request_hash, ' +
      'correlation_id, created_at',
    function* () {
      for (let i = 0; i < size.donations; i += 1) {
        const owner = owners[model.partner[i]!]!;
        const f = model.fundraiser[i]!;
        yield row([
          donationId(i),
          donationRef(i),
          owner.id,
          owner.environment,
          false,
          CHANNEL,
          accounts[f]!,
          member(f),
          `donor${i % 400_000}@example.com`,
          'Hist',
          `Donor${i % 997}`,
          String(2000 + (i % 900)),
          `TX-H${i}`,
          model.amountCents[i]!,
          'history',
          uuidOf(0xc0, i),
          iso(model.createdMs[i]!),
        ]);
      }
    },
  );
  await copy(
    'remittance_batches',
    'id, partner_id, environment, channel, fundraiser_id, account_id, status, entry_count, total_cents, ' +
      'request_hash, correlation_id, created_at, started_at, completed_at, outcome_counts, exception_count, attempts',
    function* () {
      for (let b = 0; b < model.batches; b += 1) {
        const owner = owners[model.batchPartner[b]!]!;
        const first = model.entryDonations[model.batchFirst[b]!]!;
        const count = model.batchCount[b]!;
        let total = 0;
        for (let k = 0; k < count; k += 1) total += model.amountCents[model.entryDonations[model.batchFirst[b]! + k]!]!;
        const at = model.batchCreatedMs[b]!;
        const f = model.fundraiser[first]!;
        yield row([
          batchId(b),
          owner.id,
          owner.environment,
          CHANNEL,
          member(f),
          accounts[f]!,
          'completed',
          count,
          total,
          'history',
          uuidOf(0xcb, b),
          iso(at),
          iso(at + 1_000),
          iso(settledMs(b)),
          JSON.stringify({ matched: count }),
          0,
          1,
        ]);
      }
    },
  );
  const entries = function* (line: (b: number, k: number, d: number) => string) {
    for (let b = 0; b < model.batches; b += 1)
      for (let k = 0; k < model.batchCount[b]!; k += 1)
        yield line(b, k, model.entryDonations[model.batchFirst[b]! + k]!);
  };
  await copy('remittance_entries', 'batch_id, position, bank_reference_id, amount_cents, donation_ids, outcome', () =>
    entries((b, k, d) => row([batchId(b), k, bankRef(b, k), model.amountCents[d]!, `{${donationRef(d)}}`, 'matched'])),
  );
  await copy(
    'remittance_bank_references',
    'partner_id, environment, bank_reference_id, batch_id, position, amount_cents, donation_ids, settled_at',
    () =>
      entries((b, k, d) => {
        const owner = owners[model.batchPartner[b]!]!;
        return row([
          owner.id,
          owner.environment,
          bankRef(b, k),
          batchId(b),
          k,
          model.amountCents[d]!,
          `{${donationRef(d)}}`,
          iso(settledMs(b)),
        ]);
      }),
  );
  await copy(
    'donation_settlements',
    'donation_id, donation_reference_id, partner_id, environment, bank_reference_id, batch_id, position, ' +
      'amount_cents, settled_at',
    () =>
      entries((b, k, d) => {
        const owner = owners[model.batchPartner[b]!]!;
        return row([
          donationId(d),
          donationRef(d),
          owner.id,
          owner.environment,
          bankRef(b, k),
          batchId(b),
          k,
          model.amountCents[d]!,
          iso(settledMs(b)),
        ]);
      }),
  );
  const receipted = receiptsOf(model);
  await copyReceipts(copy, loading, receipted, donationId, member);
  await copyEvents(copy, loading, batchId, settledMs);
  await copyDebits(copy, model, owners, accounts);
  await copyBank(copy, model, batchId, bankRef, nowMs);
  await copyAudit(copy, model, nowMs);
}

/** Which settled donations were receipted: size.receipts of them, spread evenly over the history. */
function receiptsOf(model: HistoryModel): Int32Array {
  const settled: number[] = [];
  for (let i = 0; i < model.size.donations; i += 1) if (model.batch[i]! >= 0) settled.push(i);
  const count = Math.min(model.size.receipts, settled.length);
  const chosen = new Int32Array(count);
  for (let r = 0; r < count; r += 1) chosen[r] = settled[Math.floor((r * settled.length) / count)]!;
  return chosen;
}

async function copyReceipts(
  copy: Copy,
  { model, owners, state }: Loading,
  receipted: Int32Array,
  donationId: (i: number) => string,
  member: (f: number) => string,
) {
  const receiptId = (r: number) => uuidOf(0x7e, r);
  const issuedMs = (d: number) => model.batchCreatedMs[model.batch[d]!]! + 60_000;
  await copy(
    'receipts',
    'id, number, series, financial_year, sequence, issuer_id, donation_id, donation_reference_id, partner_id, ' +
      'environment, amount_cents, gift_date, donor_name, donor_email, fundraiser_name, fundraiser_id, issued_at, ' +
      'issue_reason',
    function* () {
      const sequences = new Map<string, number>();
      for (let r = 0; r < receipted.length; r += 1) {
        const d = receipted[r]!;
        const owner = owners[model.partner[d]!]!;
        const gift = dayOf(model.createdMs[d]!);
        const year = financialYear(gift);
        const sequence = (sequences.get(year) ?? 0) + 1;
        sequences.set(year, sequence);
        yield row([
          receiptId(r),
          `SAMPLE-${year}-${String(sequence).padStart(6, '0')}`,
          'sample',
          year,
          sequence,
          state.issuerId,
          donationId(d),
          donationRef(d),
          owner.id,
          owner.environment,
          model.amountCents[d]!,
          gift,
          `Hist Donor${d % 997}`,
          `donor${d % 400_000}@example.com`,
          `History Club ${member(model.fundraiser[d]!)}`,
          member(model.fundraiser[d]!),
          iso(issuedMs(d)),
          'settled',
        ]);
      }
      for (const [year, last] of sequences) state.receiptCounters.set(year, last);
    },
  );
  await copy(
    'mail_outbox',
    'kind, recipient, attachments, about, status, attempts, delivered_to, sent_at, created_at, updated_at',
    function* () {
      for (let r = 0; r < receipted.length; r += 1) {
        const d = receipted[r]!;
        const email = `donor${d % 400_000}@example.com`;
        const at = iso(issuedMs(d) + 5_000);
        yield row([
          'receipt',
          email,
          JSON.stringify([{ type: 'receipt', id: receiptId(r) }]),
          `donation:${donationRef(d)}`,
          'sent',
          1,
          email,
          at,
          at,
          at,
        ]);
      }
    },
  );
}

async function copyEvents(
  copy: Copy,
  { model, owners, state }: Loading,
  batchId: (b: number) => string,
  settledMs: (b: number) => number,
) {
  await copy('webhook_events', 'id, partner_id, environment, sequence, type, data, created_at', function* () {
    for (let b = 0; b < model.batches; b += 1) {
      const p = model.batchPartner[b]!;
      const owner = owners[p]!;
      const sequence = (state.lastSequence.get(p) ?? (p === 0 ? state.eventBase : 0)) + 1;
      state.lastSequence.set(p, sequence);
      const count = model.batchCount[b]!;
      yield row([
        `evt_H${base32(b, 25)}`,
        owner.id,
        owner.environment,
        sequence,
        'remittance.completed',
        JSON.stringify({
          batchId: batchId(b),
          status: 'completed',
          channel: CHANNEL,
          counts: { entries: count, matched: count },
        }),
        iso(settledMs(b)),
      ]);
    }
  });
}

/** One-off debits on the partners' mandates: collected over the three seasons, a few failed. */
async function copyDebits(copy: Copy, model: HistoryModel, owners: Owner[], accounts: string[]) {
  const random = seeded(300);
  const mandates = Math.max(1, Math.round(model.size.debits / 100));
  const mandateId = (m: number) => `MDT-H${base32(m, 10)}`;
  await copy(
    'mandates',
    'id, partner_id, environment, channel, account_id, fundraiser_id, fundraiser_first_name, fundraiser_last_name, ' +
      'fundraiser_email, provider, status, accepted_at, correlation_id, created_at, updated_at',
    function* () {
      for (let m = 0; m < mandates; m += 1) {
        const owner = owners[m % owners.length]!;
        const f = m % model.size.fundraisers;
        const at = iso(model.startMs + m * 1000);
        yield row([
          mandateId(m),
          owner.id,
          owner.environment,
          CHANNEL,
          accounts[f]!,
          f === 0 ? BENCH_FUNDRAISER : memberOf(f),
          'Hist',
          'Payer',
          `payer${m}@example.com`,
          'simulator',
          'active',
          at,
          uuidOf(0xcd, m),
          at,
          at,
        ]);
      }
    },
  );
  const span = HISTORY_DAYS * DAY_MS;
  await copy(
    'debits',
    'id, partner_id, environment, is_live, mandate_id, transaction_id, amount_cents, due_date, status, attempts, ' +
      'queued_attempt, correlation_id, settled_at, created_at, updated_at',
    function* () {
      for (let i = 0; i < model.size.debits; i += 1) {
        const m = i % mandates;
        const owner = owners[m % owners.length]!;
        const dueMs = model.startMs + (span * (i + random())) / model.size.debits;
        const failed = random() < 0.04;
        yield row([
          `DBT-H${base32(i, 12)}`,
          owner.id,
          owner.environment,
          false,
          mandateId(m),
          `DTX-H${i}`,
          1000 + (i % 50) * 100,
          dayOf(dueMs),
          failed ? 'failed' : 'succeeded',
          failed ? 3 : 1,
          failed ? 3 : 1,
          uuidOf(0xce, i),
          failed ? null : iso(dueMs + 3 * DAY_MS),
          iso(dueMs - DAY_MS),
          iso(dueMs + 3 * DAY_MS),
        ]);
      }
    },
  );
}

/**
 * Daily statements whose credit lines paid remittance entries (an automatic match by reference each); one line in a
 * hundred pays nothing known and is still open, one in fifty is a debit (fees).
 */
async function copyBank(
  copy: Copy,
  model: HistoryModel,
  batchId: (b: number) => string,
  bankRef: (b: number, k: number) => string,
  nowMs: number,
) {
  const random = seeded(500);
  const entryCount = model.batchFirst[model.batches - 1]! + model.batchCount[model.batches - 1]!;
  const lines = model.size.bankLines;
  const days = Math.ceil((nowMs - model.startMs) / DAY_MS);
  const statementId = (day: number) => uuidOf(0x5e, day);
  // Line i pays entry paid[i] (an index into the entries), or nothing (-1): open credits and debits.
  const kind = new Int8Array(lines); // 0 paying, 1 open credit, 2 debit
  const paid = new Int32Array(lines).fill(-1);
  const entryBatch = new Int32Array(entryCount);
  for (let b = 0; b < model.batches; b += 1)
    for (let k = 0; k < model.batchCount[b]!; k += 1) entryBatch[model.batchFirst[b]! + k] = b;
  for (let i = 0; i < lines; i += 1) {
    const r = random();
    kind[i] = r < 0.01 ? 1 : r < 0.03 ? 2 : 0;
    if (kind[i] === 0) paid[i] = Math.floor((i * entryCount) / lines);
  }
  const bookedMs = (i: number) =>
    paid[i]! >= 0
      ? Math.min(nowMs - DAY_MS, model.batchCreatedMs[entryBatch[paid[i]!]!]! + DAY_MS)
      : model.startMs + ((nowMs - DAY_MS - model.startMs) * i) / lines;
  const dayIndex = (i: number) => Math.floor((bookedMs(i) - model.startMs) / DAY_MS);
  const perDay = new Int32Array(days + 1);
  for (let i = 0; i < lines; i += 1) perDay[dayIndex(i)]! += 1;
  await copy(
    'bank_statements',
    'id, file_name, file_sha256, format, layout, lines_read, lines_added, imported_by, imported_at',
    function* () {
      for (let day = 0; day <= days; day += 1) {
        if (perDay[day] === 0) continue;
        const at = model.startMs + (day + 1) * DAY_MS;
        yield row([
          statementId(day),
          `statement-${dayOf(at)}.csv`,
          `history-${day}`,
          'csv',
          'commbank',
          perDay[day]!,
          perDay[day]!,
          'ops0@example.org',
          iso(at),
        ]);
      }
    },
  );
  const lineNo = new Int32Array(days + 1);
  const amountOf = (i: number) =>
    paid[i]! >= 0 ? model.amountCents[model.entryDonations[paid[i]!]!]! : 500 + Math.floor(random() * 10_000);
  const refOf = (i: number) => {
    const e = paid[i]!;
    const b = entryBatch[e]!;
    return bankRef(b, e - model.batchFirst[b]!);
  };
  const lineId = (i: number) => i + 1;
  await copy(
    'bank_lines',
    'id, statement_id, line_no, account, booked_on, credit, amount_cents, description, reference, tokens, ' +
      'dedupe_key, imported_at',
    function* () {
      for (let i = 0; i < lines; i += 1) {
        const day = dayIndex(i);
        lineNo[day]! += 1;
        const paying = kind[i] === 0;
        const description = paying ? `REMITTANCE ${refOf(i)}` : kind[i] === 1 ? `DEPOSIT ${i}` : `FEE ${i}`;
        yield row([
          lineId(i),
          statementId(day),
          lineNo[day]!,
          '062000-12345678',
          dayOf(bookedMs(i)),
          kind[i] !== 2,
          amountOf(i),
          description,
          paying ? refOf(i) : null,
          paying ? `{REMITTANCE,${refOf(i)}}` : kind[i] === 1 ? `{DEPOSIT,${i}}` : `{FEE,${i}}`,
          `history:${i}`,
          iso(model.startMs + (day + 1) * DAY_MS),
        ]);
      }
    },
  );
  const paying = function* (line: (i: number, e: number) => string) {
    for (let i = 0; i < lines; i += 1) if (paid[i]! >= 0) yield line(i, paid[i]!);
  };
  const cents = (e: number) => model.amountCents[model.entryDonations[e]!]!;
  const decidedAt = (i: number) => iso(model.startMs + (dayIndex(i) + 1) * DAY_MS + 60_000);
  await copy('bank_matches', 'id, method, rule, line_cents, entry_cents, decided_by, decided_at', () =>
    paying((i, e) => row([lineId(i), 'automatic', 'reference', cents(e), cents(e), 'system', decidedAt(i)])),
  );
  await copy('bank_match_lines', 'match_id, line_id, amount_cents', () =>
    paying((i, e) => row([lineId(i), lineId(i), cents(e)])),
  );
  await copy('bank_match_entries', 'match_id, batch_id, position, amount_cents, received_at', () =>
    paying((i, e) => {
      const b = entryBatch[e]!;
      return row([lineId(i), batchId(b), e - model.batchFirst[b]!, cents(e), decidedAt(i)]);
    }),
  );
}

/** Operators' audit entries over the three seasons: imports, matches, searches, partner and credential changes. */
async function copyAudit(copy: Copy, model: HistoryModel, nowMs: number) {
  const random = seeded(700);
  const actions = [
    'bank.import',
    'bank.confirm',
    'receipt.view',
    'partner.update',
    'credential.rotate',
    'remittance.retry',
  ];
  const n = model.size.auditEntries;
  await copy('audit_log', 'at, actor, action, subject, details', function* () {
    for (let i = 0; i < n; i += 1) {
      const action = actions[Math.floor(random() ** 2 * actions.length)]!;
      yield row([
        iso(model.startMs + ((nowMs - DAY_MS - model.startMs) * (i + random())) / n),
        `ops${i % 12}@example.org`,
        action,
        `${action.split('.')[0]}:H${i % 5_000}`,
        JSON.stringify({ history: i }),
      ]);
    }
  });
}

/** After the copies: the counters the service carries on from, the identities, the statistics. */
async function finish(client: pg.Client, owners: Owner[], state: LoadState, tables: TableLoad[]) {
  const t0 = performance.now();
  for (const [year, last] of state.receiptCounters)
    await client.query(
      `insert into receipt_counters (series, financial_year, last_number) values ('sample', $1, $2)
       on conflict (series, financial_year) do update set last_number = receipt_counters.last_number + excluded.last_number`,
      [year, last],
    );
  for (const [p, last] of state.lastSequence)
    await client.query(
      `insert into webhook_event_sequences (partner_id, environment, last_sequence) values ($1, $2, $3)
       on conflict (partner_id, environment) do update set last_sequence = excluded.last_sequence`,
      [owners[p]!.id, owners[p]!.environment, last],
    );
  for (const table of ['bank_lines', 'bank_matches'])
    await client.query(`select setval(pg_get_serial_sequence('${table}', 'id'), (select max(id) from ${table}))`);
  tables.push({ table: '(counters and sequences)', rows: 0, ms: performance.now() - t0 });
  const t1 = performance.now();
  await client.query('vacuum (analyze)');
  tables.push({ table: 'vacuum (analyze)', rows: 0, ms: performance.now() - t1 });
}
