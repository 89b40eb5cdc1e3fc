import type { Kysely } from 'kysely';
import type { DB } from '../../infrastructure/db/schema.js';
import {
  addPartnerRequestCounts,
  keyOf,
  type RequestCount,
} from '../../infrastructure/repositories/partner-request-counts.js';
import {
  credentialsOfClientIds,
  insertPartnerRequests,
  type NewPartnerRequest,
} from '../../infrastructure/repositories/partner-requests.js';
import { maskedBody, maskedPayload } from './mask.js';

/** A request as captured when its answer was sent: references only, masked and written later. */
export interface CapturedRequest {
  /** The authenticated partner; null when the call was refused before (its client id is then looked up). */
  partnerId: string | null;
  clientId: string | null;
  environment: string | null;
  at: Date;
  method: string;
  route: string;
  status: number;
  latencyUs: number;
  correlationId: string;
  /** The body as parsed (not copied). */
  requestBody: unknown;
  /** The payload as sent, when it was text. */
  responsePayload: string | null;
}

export interface RequestLogWriterOptions {
  /** PARTNER_REQUEST_LOG_BUFFER: entries held at most; past it, new ones are dropped. */
  capacity: number;
  /** PARTNER_REQUEST_LOG_BODY_BYTES: characters kept of each body. */
  bodyChars: number;
  /** PARTNER_REQUEST_LOG_SUCCESSFUL_READS: a successful GET gets a row of its own too, not only its count. */
  successfulReads: boolean;
  /** Told of every entry dropped: the buffer was full, or its batch could not be written. */
  onDropped: (reason: 'full' | 'write-failed', count: number) => void;
  /** Told at most every WARN_EVERY_MS of drops (counts only, never what the requests held). */
  warn: (fields: Record<string, unknown>, message: string) => void;
}

/** How often the buffer is written, and the rows of one insert (docs/decisions/0088-request-log-masked-and-buffered.md). */
const FLUSH_MS = 250;
const BATCH_ROWS = 500;
const WARN_EVERY_MS = 10_000;

/**
 * The request log's writer: requests captured on the request path go into a bounded buffer; every FLUSH_MS (or
 * as soon as a batch is full) they are counted per minute, route and status, and those the log itemises are masked
 * and written, off the request's path. A full buffer drops, counts and warns: the log never holds a request or grows
 * the heap without bound.
 */
export class RequestLogWriter {
  private buffer: CapturedRequest[] = [];
  private timer: NodeJS.Timeout | null = null;
  private writing: Promise<void> | null = null;
  private droppedSinceWarn = 0;
  private lastWarn = 0;
  private closed = false;

  constructor(
    private readonly db: Kysely<DB>,
    private readonly options: RequestLogWriterOptions,
  ) {}

  /**
   * Whether a request gets a row of its own (with its bodies) besides its count: every failure and every change;
   * a successful read only when PARTNER_REQUEST_LOG_SUCCESSFUL_READS is on (docs/decisions/0092-successful-reads-
   * counted-not-itemised.md). Asked on the request path, before its payload is kept.
   */
  itemises(method: string, status: number): boolean {
    return status >= 400 || (method !== 'GET' && method !== 'HEAD') || this.options.successfulReads;
  }

  /** Takes a request; never waits, never throws. */
  record(entry: CapturedRequest): void {
    if (this.closed || this.buffer.length >= this.options.capacity) return this.drop('full', 1);
    this.buffer.push(entry);
    if (this.buffer.length >= BATCH_ROWS) this.schedule(0);
    else this.schedule(FLUSH_MS);
  }

  /** Writes everything buffered now (tests, shutdown). */
  async flush(): Promise<void> {
    this.clearTimer();
    while (this.writing || this.buffer.length > 0) {
      if (this.writing) await this.writing;
      else await this.writeNext();
    }
  }

  /** Writes what is buffered and takes nothing more. */
  async close(): Promise<void> {
    this.closed = true;
    await this.flush();
  }

  private schedule(delayMs: number): void {
    if (this.writing) return;
    if (this.timer && delayMs > 0) return;
    this.clearTimer();
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.writeNext();
    }, delayMs);
    this.timer.unref();
  }

  private clearTimer(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  /** Writes one batch; then schedules the next if entries are left. */
  private writeNext(): Promise<void> {
    if (this.writing) return this.writing;
    const batch = this.buffer.splice(0, BATCH_ROWS);
    if (batch.length === 0) return Promise.resolve();
    this.writing = this.write(batch)
      .catch(() => this.drop('write-failed', batch.length))
      .finally(() => {
        this.writing = null;
        if (this.buffer.length > 0) this.schedule(this.buffer.length >= BATCH_ROWS ? 0 : FLUSH_MS);
      });
    return this.writing;
  }

  private async write(batch: CapturedRequest[]): Promise<void> {
    const unknown = [...new Set(batch.filter((e) => !e.partnerId && e.clientId).map((e) => e.clientId!))];
    const known = await credentialsOfClientIds(this.db, unknown);
    const rows: NewPartnerRequest[] = [];
    const counts = new Map<string, RequestCount>();
    for (const entry of batch) {
      const credential = entry.partnerId ? null : known.get(entry.clientId ?? '');
      const partnerId = entry.partnerId ?? credential?.partnerId;
      // A refused call naming no known client id belongs to no partner: not logged.
      if (!partnerId) continue;
      const environment = entry.environment ?? credential?.environment ?? null;
      count(counts, entry, partnerId, environment ?? '');
      if (this.itemises(entry.method, entry.status)) rows.push(this.row(entry, partnerId, environment));
    }
    // Both or neither: a batch that failed is counted as dropped, and neither its rows nor its counts are there.
    await this.db.transaction().execute(async (trx) => {
      await insertPartnerRequests(trx, rows);
      await addPartnerRequestCounts(trx, [...counts.values()]);
    });
  }

  private row(entry: CapturedRequest, partnerId: string, environment: string | null): NewPartnerRequest {
    const { bodyChars } = this.options;
    const response = maskedPayload(entry.responsePayload, bodyChars);
    const error = entry.status >= 400 ? errorOf(entry.responsePayload) : null;
    return {
      partner_id: partnerId,
      at: entry.at,
      method: entry.method,
      route: entry.route,
      status: entry.status,
      error_code: error?.code ?? null,
      error_cause: error?.cause ?? null,
      latency_us: entry.latencyUs,
      correlation_id: entry.correlationId,
      client_id: entry.clientId,
      environment,
      request_body: maskedBody(entry.requestBody, bodyChars),
      response_body: response,
    };
  }

  private drop(reason: 'full' | 'write-failed', count: number): void {
    this.options.onDropped(reason, count);
    this.droppedSinceWarn += count;
    const now = Date.now();
    if (now - this.lastWarn < WARN_EVERY_MS) return;
    this.options.warn({ dropped: this.droppedSinceWarn, reason }, 'partner request log entries dropped');
    this.droppedSinceWarn = 0;
    this.lastWarn = now;
  }
}

/** Adds a request to its minute's count in `counts`. */
function count(counts: Map<string, RequestCount>, entry: CapturedRequest, partnerId: string, environment: string) {
  const minute = new Date(Math.floor(entry.at.getTime() / 60_000) * 60_000);
  const key = { partnerId, minute, environment, method: entry.method, route: entry.route, status: entry.status };
  const id = keyOf(key);
  const held = counts.get(id);
  if (!held)
    return void counts.set(id, { ...key, requests: 1, latencyUsTotal: entry.latencyUs, latencyUsMax: entry.latencyUs });
  held.requests += 1;
  held.latencyUsTotal += entry.latencyUs;
  held.latencyUsMax = Math.max(held.latencyUsMax, entry.latencyUs);
}

/** The error envelope's code and cause (section 2.2), when the payload is one. */
function errorOf(payload: string | null): { code: string | null; cause: string | null } | null {
  if (!payload) return null;
  try {
    const error = (JSON.parse(payload) as { error?: { code?: unknown; cause?: unknown } }).error;
    if (!error) return null;
    return {
      code: typeof error.code === 'string' ? error.code : null,
      cause: typeof error.cause === 'string' ? error.cause.slice(0, 2000) : null,
    };
  } catch {
    return null;
  }
}
