import type { Kysely } from 'kysely';
import { ApiError } from '../../api-errors.js';
import { requestHash } from '../../domain/request-hash.js';
import type { DB } from '../../infrastructure/db/schema.js';
import { listAuditEntries } from '../../infrastructure/repositories/audit-log.js';
import type { SecretBox } from '../../infrastructure/webhooks/secret-box.js';
import { idempotent, idempotencyScope } from '../idempotency.js';
import { AuditActions } from '../operators/audit.js';
import { noticeRotationStarted } from '../notices/credentials.js';
import { requireUsable, rotateWithin, rotationNotice } from '../operators/credential-admin.js';
import type { OperatorContext } from '../operators/context.js';
import { NotFoundError, OperatorError } from '../operators/operator-errors.js';
import { listPortalUsersOfPartner } from '../../infrastructure/repositories/portal-users.js';
import type { RequestContext } from '../record-donation.js';

/** The overlap of a scheduled rotation (contract section 5.6): both pairs work for 14 days. */
const ROTATION_OVERLAP_DAYS = 14;
const DAY_MS = 86_400_000;

export interface SelfRotationDeps {
  db: Kysely<DB>;
  /** Seals the new secret inside the stored answer, so a retry with the same Idempotency-Key can show it again. */
  secretBox: SecretBox;
  now: () => Date;
  /** Rotations a partner may make in 24 hours (CREDENTIAL_SELF_ROTATIONS_PER_DAY). */
  perDay: number;
}

interface Stored {
  clientId: string;
  sealedSecret: string;
  previousClientId: string;
  previousExpiresAt: string;
}

/**
 * POST /credentials/rotate: the partner rotates the credential it calls with. A new pair is returned once, and the
 * old one keeps working for 14 days; its security contacts are told. Throttled (a stolen credential must not churn
 * pairs), and safe to retry with an Idempotency-Key: the stored answer holds the new secret sealed with the
 * service's key, and is pruned with the other idempotency records.
 */
export async function rotateOwnCredential(deps: SelfRotationDeps, context: RequestContext) {
  const { principal } = context;
  const actor = `partner:${principal.partnerId}`;
  const scope = idempotencyScope(context, 'POST /credentials/rotate', requestHash({ clientId: principal.clientId }));
  const result = await idempotent<Stored>(deps.db, scope, async (trx) => {
    const rotation = await asApiError(() =>
      rotateForPartner(trx, deps, { partnerId: principal.partnerId, clientId: principal.clientId, actor }),
    );
    return {
      status: 201,
      items: {
        clientId: rotation.issued.clientId,
        sealedSecret: deps.secretBox.seal(rotation.issued.clientSecret, rotation.issued.clientId),
        previousClientId: rotation.previous.clientId,
        previousExpiresAt: rotation.previous.expiresAt!.toISOString(),
      },
    };
  });
  const { sealedSecret, ...items } = result.items;
  return { ...result, items: { ...items, clientSecret: deps.secretBox.open(sealedSecret, items.clientId) } };
}

/**
 * A partner's own rotation of one of its credentials, in the caller's transaction: through the API (the credential
 * it calls with, actor `partner:<id>`) or the partner portal (a pair its user picks, actor `portal:<email>`). Both
 * count against the same limit; a credential of another partner is not found, like an unknown one. Throws the
 * limit as an ApiError (RATE_LIMIT, with Retry-After) and a refusal (rotated, revoked) as an OperatorError.
 */
export async function rotateForPartner(
  trx: Kysely<DB>,
  deps: SelfRotationDeps,
  who: { partnerId: string; clientId: string; actor: string },
) {
  await requireRotationAllowed(trx, who.partnerId, deps);
  const tx: OperatorContext = { db: trx, operator: who.actor, now: deps.now };
  const credential = await requireUsable(tx, who.clientId, 'rotate');
  if (credential.partnerId !== who.partnerId) throw new NotFoundError('There is no such credential.');
  const rotation = await rotateWithin(tx, credential, ROTATION_OVERLAP_DAYS);
  // Its technical and security contacts are told, in this transaction (docs/partners.md, "Notices").
  await noticeRotationStarted(trx, tx.now(), rotationNotice(rotation), true);
  return rotation;
}

/**
 * At most `perDay` rotations by the partner in 24 hours, through the API or its portal users: a 429 with the wait
 * until the oldest of them is a day old.
 */
async function requireRotationAllowed(db: Kysely<DB>, partnerId: string, deps: SelfRotationDeps) {
  const now = deps.now();
  const users = await listPortalUsersOfPartner(db, partnerId);
  const recent = await listAuditEntries(db, {
    actors: [`partner:${partnerId}`, ...users.map((email) => `portal:${email}`)],
    action: AuditActions.credentialRotate,
    since: new Date(now.getTime() - DAY_MS),
    limit: deps.perDay,
  });
  if (recent.length < deps.perDay) return;
  const oldest = Math.min(...recent.map((entry) => new Date(entry.at).getTime()));
  const wait = Math.max(1, Math.ceil((oldest + DAY_MS - now.getTime()) / 1000));
  throw new ApiError('RATE_LIMIT', `At most ${deps.perDay} rotations in 24 hours; retry in ${wait} s`, {
    'retry-after': String(wait),
  });
}

/** An operator service's refusal (already rotated, revoked) as the partner API answers it. */
async function asApiError<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof OperatorError) throw new ApiError('CONFLICT', partnerFacing(err.message));
    throw err;
  }
}

/** An operator service's message without its CLI advice ("see credentials list"): what a partner is shown. */
export const partnerFacing = (message: string) => message.replace(/;[^;]*"credentials [^"]+".*$/, '.');
