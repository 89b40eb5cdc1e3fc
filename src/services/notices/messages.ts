/**
 * What each notice to a partner says, and to which of its contacts it goes (docs/partners.md, "Notices"). Plain
 * text: the people reading them are engineers and accountants, and their mail clients may refuse HTML.
 */

export const NOTICE_ROLES = {
  'rotation-started': ['technical', 'security'],
  'rotation-emergency': ['technical', 'security'],
  'overlap-ending': ['technical'],
  'credential-revoked': ['technical', 'security'],
  'rotation-due': ['technical'],
  'remittance-exceptions': ['finance'],
  'webhook-disabled': ['technical'],
  'api-deprecation': ['technical'],
} as const satisfies Record<string, readonly string[]>;
export type NoticeKind = keyof typeof NOTICE_ROLES;

export interface NoticeMail {
  subject: string;
  text: string;
}

const when = (at: Date) =>
  at
    .toISOString()
    .replace(/\.\d{3}Z$/, ' UTC')
    .replace('T', ' ');
const day = (at: Date) => at.toISOString().slice(0, 10);

const footer = (partner: string, kind: NoticeKind) =>
  `\n\n--\nSent to the ${NOTICE_ROLES[kind].join(' and ')} contacts the foundation holds for ${partner}. ` +
  'To change who receives these notices, ask the foundation.';

const compose = (partner: string, kind: NoticeKind, subject: string, lines: string[]): NoticeMail => ({
  subject,
  text: `${lines.join('\n\n')}${footer(partner, kind)}`,
});

export interface PairChange {
  environment: string;
  oldClientId: string;
  newClientId: string;
  /** When the old pair stops (a rotation's overlap). */
  oldExpiresAt?: Date | null;
}

export function rotationStartedMail(partner: string, change: PairChange, byPartner: boolean): NoticeMail {
  const who = byPartner
    ? 'It was rotated with POST /credentials/rotate, authenticated with the old credential, which received the new ' +
      'secret. If nobody at your organisation did this, tell the foundation at once: the old secret may be stolen.'
    : 'The foundation rotated it and hands the new secret over through its usual secure channel; a secret is never ' +
      'sent by e-mail.';
  return compose(partner, 'rotation-started', `${partner}: ${change.environment} API credential rotated`, [
    `The ${change.environment} credential ${change.oldClientId} of ${partner} was rotated: ${change.newClientId} replaces it.`,
    who,
    `The old credential keeps working until ${when(change.oldExpiresAt!)}, then stops. Deploy the new one before then.`,
  ]);
}

export function emergencyRotationMail(partner: string, change: PairChange): NoticeMail {
  return compose(partner, 'rotation-emergency', `${partner}: ${change.environment} API credential revoked at once`, [
    `The ${change.environment} credential ${change.oldClientId} of ${partner} was revoked at once (emergency ` +
      `rotation, no overlap): calls made with it are refused from now on. ${change.newClientId} replaces it.`,
    'The foundation hands the new secret over through its usual secure channel; a secret is never sent by e-mail.',
  ]);
}

export function overlapEndingMail(partner: string, change: PairChange): NoticeMail {
  return compose(partner, 'overlap-ending', `${partner}: old API credential stops on ${day(change.oldExpiresAt!)}`, [
    `The ${change.environment} credential ${change.oldClientId} of ${partner} stops working at ` +
      `${when(change.oldExpiresAt!)}: the overlap of its rotation ends. Every system must use ${change.newClientId} by then.`,
  ]);
}

export function credentialRevokedMail(
  partner: string,
  credential: { environment: string; clientId: string; at: Date; replacedBy: string | null },
  reason: 'revoked' | 'overlap-ended',
): NoticeMail {
  const why =
    reason === 'revoked' ? 'The foundation revoked it.' : 'The overlap of its rotation is over; it was replaced.';
  const instead = credential.replacedBy ? ` Use ${credential.replacedBy}.` : '';
  return compose(partner, 'credential-revoked', `${partner}: API credential ${credential.clientId} stopped`, [
    `The ${credential.environment} credential ${credential.clientId} of ${partner} stopped working at ` +
      `${when(credential.at)}. ${why}${instead}`,
  ]);
}

export function rotationDueMail(
  partner: string,
  credential: { environment: string; clientId: string; dueAt: Date; periodDays: number },
): NoticeMail {
  return compose(partner, 'rotation-due', `${partner}: API credential rotation due on ${day(credential.dueAt)}`, [
    `The ${credential.environment} credential ${credential.clientId} of ${partner} is due for its scheduled ` +
      `rotation on ${day(credential.dueAt)} (every ${credential.periodDays} days).`,
    'Rotate it yourself with POST /credentials/rotate (the old one keeps working for 14 days), or ask the foundation.',
  ]);
}

export function remittanceDigestMail(
  partner: string,
  summary: { date: string; batches: number; exceptions: number },
): NoticeMail {
  return compose(partner, 'remittance-exceptions', `${partner}: remittance exceptions of ${summary.date}`, [
    `${summary.batches} remittance batch${summary.batches === 1 ? '' : 'es'} of ${partner} completed on ` +
      `${summary.date} with ${summary.exceptions} exception${summary.exceptions === 1 ? '' : 's'}: entries the ` +
      'foundation could not match to a donation as sent.',
    'The attached CSV lists each one with its outcome. GET /remittances/{batchId} reports every entry.',
  ]);
}

export function webhookDisabledMail(
  partner: string,
  endpoint: { id: string; url: string; at: Date; reason: string },
): NoticeMail {
  return compose(partner, 'webhook-disabled', `${partner}: webhook endpoint disabled`, [
    `The webhook endpoint ${endpoint.url} (${endpoint.id}) of ${partner} was disabled at ${when(endpoint.at)}: ` +
      `${endpoint.reason}`,
    'Its pending deliveries were stopped. Events are still recorded (GET /events). Once the receiver answers ' +
      'again, ask the foundation to enable it, and replay what it missed.',
  ]);
}

export function deprecationMail(
  partner: string,
  deprecation: { routes: string[]; sunsetAt: Date; description: string; link: string | null },
): NoticeMail {
  return compose(
    partner,
    'api-deprecation',
    `Fundraising API: ${deprecation.routes.join(', ')} stop on ${day(deprecation.sunsetAt)}`,
    [
      `These routes of the fundraising API stop on ${day(deprecation.sunsetAt)}:\n${deprecation.routes.map((r) => `  ${r}`).join('\n')}`,
      deprecation.description,
      ...(deprecation.link ? [`Details: ${deprecation.link}`] : []),
      'Until then they answer with Deprecation and Sunset headers, and the API reference marks them deprecated.',
    ],
  );
}
