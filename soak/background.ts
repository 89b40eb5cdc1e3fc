import { randomUUID } from 'node:crypto';
import { addDays } from '../src/domain/calendar-date.js';
import type { BenchDatabase } from '../bench/database.js';
import { headersOf } from '../bench/money-support.js';
import type { SmtpSink } from '../bench/smtp-sink.js';
import { importStatementFile, statementFile, writeStatementFile } from '../bench/statement.js';
import { CHANNEL, FUNDRAISER_ID, type Credentials } from '../bench/workloads.js';

/** Plans started every PLAN_EVERY_SECONDS (PLANS_AT_ONCE of them), the sandbox clock a day on every CLOCK_EVERY_SECONDS. */
const PLAN_EVERY_SECONDS = 10;
const PLANS_AT_ONCE = 10;
const CLOCK_EVERY_SECONDS = 30;
/** A statement pays at most this many of the entries remitted since the one before. */
const STATEMENT_MAX_ENTRIES = 20_000;

export interface BackgroundSummary {
  plans: number;
  clockAdvances: number;
  debitsCreated: number;
  debitsSubmitted: number;
  paymentsSettled: number;
  slowestAdvanceMs: number;
  statements: { lines: number; matched: number; ms: number }[];
  mailAccepted: number;
  errors: string[];
}

/**
 * The money loop's background work beside the soak's partner traffic: monthly plans on one mandate,
 * started a few at a time to begin tomorrow, and the partner's sandbox clock moved a day on every half minute
 * (each advance creates and submits the day's debits and settles those submitted two days before); the batches the
 * mix posts settle donations whose receipts the mail worker sends to `smtp` (MAIL_REDIRECT_TO: the soak runs
 * outside production); and every `statementMinutes` a bank statement paying the entries remitted since the last
 * one is imported as an operator would (bench/statement.ts, a process of its own). None of these requests is in the
 * windows' latencies: they are not the partner traffic the soak targets are stated for.
 */
export class BackgroundWork {
  private readonly timers: NodeJS.Timeout[] = [];
  private readonly running = new Set<Promise<unknown>>();
  private mandateId = '';
  private imports = 0;
  readonly summary: BackgroundSummary = {
    plans: 0,
    clockAdvances: 0,
    debitsCreated: 0,
    debitsSubmitted: 0,
    paymentsSettled: 0,
    slowestAdvanceMs: 0,
    statements: [],
    mailAccepted: 0,
    errors: [],
  };

  constructor(
    private readonly context: { repoRoot: string; workDir: string; database: BenchDatabase; baseUrl: string },
    private readonly credentials: Credentials,
    private readonly smtp: SmtpSink,
    /** Bank references the mix has remitted and no statement has paid yet (MixSource fills it). */
    private readonly remitted: string[],
  ) {}

  async start(statementMinutes: number): Promise<void> {
    const { mandateId } = (await this.call('POST', '/mandates', {
      source: { channel: CHANNEL, fundraiserId: FUNDRAISER_ID },
      fundraiser: { firstName: 'Pat', lastName: 'Payer', email: 'pat.payer@example.com' },
      paymentMethod: 'Direct Debit',
    })) as { mandateId: string };
    await this.call('POST', `/sandbox/mandates/${mandateId}/confirm`, { bsb: '000-000', accountNumber: '000123456' });
    this.mandateId = mandateId;
    this.every(PLAN_EVERY_SECONDS, () => this.startPlans());
    this.every(CLOCK_EVERY_SECONDS, () => this.advanceClock());
    this.every(statementMinutes * 60, () => this.importStatement());
  }

  /** Stops starting work and waits for what is under way. */
  async stop(): Promise<BackgroundSummary> {
    for (const timer of this.timers) clearInterval(timer);
    await Promise.all([...this.running]);
    this.summary.mailAccepted = this.smtp.counts().accepted;
    return this.summary;
  }

  /** Runs `work` every `seconds`, skipping a tick while its previous run is still under way (as a cron would). */
  private every(seconds: number, work: () => Promise<void>) {
    let busy = false;
    this.timers.push(
      setInterval(() => {
        if (busy) return;
        busy = true;
        const done = work()
          .catch((err: unknown) => void this.summary.errors.push((err as Error).message.slice(0, 300)))
          .finally(() => {
            busy = false;
            this.running.delete(done);
          });
        this.running.add(done);
      }, seconds * 1000),
    );
  }

  private async startPlans() {
    const { today } = (await this.call('GET', '/sandbox/clock')) as { today: string };
    for (let i = 0; i < PLANS_AT_ONCE; i += 1) {
      await this.call('POST', '/recurring-donations', {
        mandateId: this.mandateId,
        amount: '25.00',
        frequency: 'monthly',
        startDate: addDays(today, 1),
        partnerReference: randomUUID(),
      });
      this.summary.plans += 1;
    }
  }

  private async advanceClock() {
    const started = performance.now();
    const answer = (await this.call('POST', '/sandbox/clock/advance', { duration: 'P1D' })) as {
      debitsCreated: number;
      triesSubmitted: number;
      paymentsSettled: number;
    };
    this.summary.slowestAdvanceMs = Math.max(this.summary.slowestAdvanceMs, performance.now() - started);
    this.summary.clockAdvances += 1;
    this.summary.debitsCreated += answer.debitsCreated;
    this.summary.debitsSubmitted += answer.triesSubmitted;
    this.summary.paymentsSettled += answer.paymentsSettled;
  }

  private async importStatement() {
    const references = this.remitted.splice(0, this.remitted.length).slice(-STATEMENT_MAX_ENTRIES);
    if (references.length === 0) return;
    const file = statementFile(this.context.workDir, this.imports++);
    writeStatementFile(file, { references });
    const run = await importStatementFile(this.context.repoRoot, this.context.database, file);
    const matched = Number(/(\d+) matched automatically/.exec(run.detail)?.[1] ?? 0);
    this.summary.statements.push({ lines: references.length, matched, ms: Math.round(run.ms) });
  }

  private async call(method: 'GET' | 'POST', path: string, body?: object): Promise<unknown> {
    const response = await fetch(`${this.context.baseUrl}${path}`, {
      method,
      headers: headersOf(this.credentials)(body ? { 'content-type': 'application/json' } : {}),
      ...(body ? { body: JSON.stringify(body) } : {}),
      signal: AbortSignal.timeout(120_000),
    });
    const text = await response.text();
    if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${text.slice(0, 200)}`);
    return (JSON.parse(text) as { data: { items: unknown } }).data.items;
  }
}
