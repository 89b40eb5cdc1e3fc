import { LRUCache } from 'lru-cache';
import type { Environment } from '../config/index.js';
import { credentialRejection, secretMatches, storedDigest } from '../domain/client-credentials.js';
import type { Principal } from '../domain/principal.js';
import type { Kysely } from 'kysely';
import type { DB } from '../infrastructure/db/schema.js';
import {
  findCredential,
  touchCredential,
  type CredentialRecord,
} from '../infrastructure/repositories/client-credentials.js';

export interface CredentialVerifierOptions {
  environment: Environment;
  /** Upper bound on how long a changed or revoked credential may be served from this instance's cache. */
  cacheTtlMs: number;
  now: () => Date;
  load: (clientId: string) => Promise<CredentialRecord | undefined>;
  touch: (clientId: string, at: Date) => Promise<void>;
  onTouchError?: (err: unknown) => void;
}

const LAST_USED_RESOLUTION_MS = 60_000;

/**
 * A credential row as cached (null: no such client id), with what every request of it needs made once: its stored
 * digest decoded and the verdict that accepts it, with its principal (nothing mutates a principal).
 */
type Known = { record: null } | { record: CredentialRecord; digest: Buffer; accepted: { principal: Principal } };

/**
 * Why a pair is refused: no such client id, a known client id with a wrong secret (someone may be guessing it), or
 * the right secret of a credential that cannot be used now (revoked, expired, suspended, another environment).
 */
export type Rejection = 'unknown-client' | 'wrong-secret' | 'unusable';

export type Verdict = { principal: Principal } | { rejected: Rejection; detail: string };

/**
 * Checks client_id/client_secret pairs. Credential rows are cached (hits and misses) for at most `cacheTtlMs`, so
 * authentication costs no database round trip on the hot path while a revocation still takes effect on every
 * instance within that bound. Time-based rules (rotation expiry) are evaluated on every request against `now()`.
 */
export class CredentialVerifier {
  private readonly cache: LRUCache<string, Known>;
  private readonly touchedAt = new Map<string, number>();

  constructor(private readonly options: CredentialVerifierOptions) {
    this.cache = new LRUCache({ max: 10_000, ttl: Math.max(1, options.cacheTtlMs), ttlAutopurge: false });
  }

  /**
   * The principal of a valid pair, or why it is refused. Answered at once (no promise) when the credential's row is
   * cached, as it is for nearly every request: the request path then costs no turn of the event loop.
   */
  verify(clientId: string, secret: string): Verdict | Promise<Verdict> {
    const cached = this.options.cacheTtlMs > 0 ? this.cache.get(clientId) : undefined;
    if (cached) return this.judge(clientId, secret, cached);
    return this.load(clientId).then((known) => this.judge(clientId, secret, known));
  }

  private judge(clientId: string, secret: string, known: Known): Verdict {
    if (!known.record) return { rejected: 'unknown-client', detail: 'unknown client_id' };
    const { record, digest, accepted } = known;
    if (!secretMatches(secret, digest)) return { rejected: 'wrong-secret', detail: 'wrong client_secret' };
    const now = this.options.now();
    const rejection = credentialRejection(record, this.options.environment, now);
    if (rejection) return { rejected: 'unusable', detail: rejection };
    this.recordUse(clientId, now);
    // The same verdict object for every request of the credential: nothing mutates it, and it is one less
    // allocation on every request (docs/performance/request-path.md).
    return accepted;
  }

  /** Forgets cached rows, e.g. after this process changed a credential. */
  invalidate(clientId?: string): void {
    if (clientId) this.cache.delete(clientId);
    else this.cache.clear();
  }

  private async load(clientId: string): Promise<Known> {
    const record = (await this.options.load(clientId)) ?? null;
    const known: Known = record
      ? { record, digest: storedDigest(record.secretHash), accepted: { principal: principalOf(record) } }
      : { record: null };
    if (this.options.cacheTtlMs > 0) this.cache.set(clientId, known);
    return known;
  }

  /** last_used_at is kept to the minute: one write per credential per minute, off the request path. */
  private recordUse(clientId: string, now: Date): void {
    const last = this.touchedAt.get(clientId) ?? 0;
    if (now.getTime() - last < LAST_USED_RESOLUTION_MS) return;
    this.touchedAt.set(clientId, now.getTime());
    this.options.touch(clientId, now).catch((err) => this.options.onTouchError?.(err));
  }
}

function principalOf(record: CredentialRecord): Principal {
  return {
    partnerId: record.partnerId,
    partnerName: record.partnerName,
    clientId: record.clientId,
    environment: record.environment,
    channels: new Set(record.channels),
    quotaLimit: record.quotaLimit,
    quotaWindowSeconds: record.quotaWindowSeconds,
  };
}

/** A verifier of the credentials stored in `db`. */
export function credentialVerifierOn(
  db: Kysely<DB>,
  options: Omit<CredentialVerifierOptions, 'load' | 'touch'>,
): CredentialVerifier {
  return new CredentialVerifier({
    ...options,
    load: (clientId) => findCredential(db, clientId),
    touch: (clientId, at) => touchCredential(db, clientId, at),
  });
}
