import type { Kysely } from 'kysely';
import type { DB } from '../../infrastructure/db/schema.js';
import { credentialRevokedMail, emergencyRotationMail, rotationStartedMail, type PairChange } from './messages.js';
import { sendNotice } from './send.js';

/** A rotation's pairs as its notices name them. */
export interface Rotation extends PairChange {
  partnerId: string;
}

/**
 * A rotation started, by the foundation or by the partner itself (POST /credentials/rotate): its technical and
 * security contacts are told, in the rotation's transaction. A credential is rotated once, so its client id keys it.
 */
export function noticeRotationStarted(trx: Kysely<DB>, at: Date, rotation: Rotation, byPartner: boolean) {
  return sendNotice(trx, {
    partnerId: rotation.partnerId,
    kind: 'rotation-started',
    subject: `${rotation.oldClientId} → ${rotation.newClientId}${byPartner ? ' (by the partner)' : ''}`,
    onceKey: `rotation-started:${rotation.oldClientId}`,
    at,
    mail: (partner) => rotationStartedMail(partner, rotation, byPartner),
  });
}

/** An emergency rotation: the old pair is revoked at once. */
export function noticeEmergencyRotation(trx: Kysely<DB>, at: Date, rotation: Rotation) {
  return sendNotice(trx, {
    partnerId: rotation.partnerId,
    kind: 'rotation-emergency',
    subject: `${rotation.oldClientId} revoked, ${rotation.newClientId} issued`,
    onceKey: `rotation-emergency:${rotation.oldClientId}`,
    at,
    mail: (partner) => emergencyRotationMail(partner, rotation),
  });
}

/**
 * A credential stopped: revoked by an operator, or at the end of its rotation's overlap (the scheduled check). One
 * key for both, so a pair revoked during its overlap is not announced again when the overlap would have ended.
 */
export function noticeCredentialEnded(
  trx: Kysely<DB>,
  now: Date,
  credential: { partnerId: string; environment: string; clientId: string; at: Date; replacedBy: string | null },
  reason: 'revoked' | 'overlap-ended',
) {
  return sendNotice(trx, {
    partnerId: credential.partnerId,
    kind: 'credential-revoked',
    subject: `${credential.clientId} stopped (${reason === 'revoked' ? 'revoked' : 'overlap over'})`,
    onceKey: `credential-ended:${credential.clientId}`,
    at: now,
    mail: (partner) => credentialRevokedMail(partner, credential, reason),
  });
}
