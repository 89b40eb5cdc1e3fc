import type { Outcome } from './client.js';

export const WINDOW_SECONDS = 10;

/** What one 10 s window of the soak recorded. */
export interface Window {
  /** Seconds since the measured run started, at the window's end. */
  at: number;
  requests: number;
  requestsPerSecond: number;
  errors: number;
  errorsByKind: Record<string, number>;
  /** Answers in the envelope but not the status expected (e.g. a 4xx): not errors by the rule, listed. */
  unexpected: number;
  p50: number;
  p99: number;
  rssMb: number | null;
  queues: Record<string, { waiting: number; oldestWaitingSeconds: number | null }>;
  databaseMb: number;
  /** Requests the driver could not send on time (more than the in-flight cap outstanding). */
  skipped: number;
}

const EXPECTED: Record<string, number> = { donation: 200, 'remittance batch': 202 };

/** Accumulates outcomes until the window closes. */
export class WindowRecorder {
  private latencies: number[] = [];
  private errors: Record<string, number> = {};
  private unexpected = 0;
  skipped = 0;

  record(outcome: Outcome): void {
    this.latencies.push(outcome.ms);
    if (outcome.error) this.errors[outcome.error] = (this.errors[outcome.error] ?? 0) + 1;
    else if (outcome.status !== (EXPECTED[outcome.kind] ?? 200)) this.unexpected += 1;
  }

  close(at: number, gauges: Pick<Window, 'rssMb' | 'queues' | 'databaseMb'>): Window {
    const sorted = this.latencies.sort((a, b) => a - b);
    const pick = (q: number) =>
      sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]! : 0;
    const window: Window = {
      at,
      requests: sorted.length,
      requestsPerSecond: sorted.length / WINDOW_SECONDS,
      errors: Object.values(this.errors).reduce((a, b) => a + b, 0),
      errorsByKind: this.errors,
      unexpected: this.unexpected,
      p50: round(pick(0.5)),
      p99: round(pick(0.99)),
      skipped: this.skipped,
      ...gauges,
    };
    this.latencies = [];
    this.errors = {};
    this.unexpected = 0;
    this.skipped = 0;
    return window;
  }
}

const round = (ms: number) => Math.round(ms * 10) / 10;

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return 0;
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}
