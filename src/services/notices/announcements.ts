import type { Kysely } from 'kysely';
import type { DB } from '../../infrastructure/db/schema.js';
import { activePartnerIds, endpointPartner } from '../../infrastructure/repositories/partner-notices.js';
import { deprecationMail, webhookDisabledMail } from './messages.js';
import { sendNotice } from './send.js';

/**
 * A webhook endpoint disabled after failing for WEBHOOK_DISABLE_AFTER_SECONDS: its partner's technical contacts are
 * told, in the transaction that disables it (it is disabled once per failure streak, so it is told once).
 */
export async function noticeEndpointDisabled(
  trx: Kysely<DB>,
  endpoint: { id: string; url: string; at: Date; lastFailure: string; failingSeconds: number },
) {
  const reason = `every delivery failed for ${span(endpoint.failingSeconds)} (last: ${endpoint.lastFailure}).`;
  return sendNotice(trx, {
    partnerId: await endpointPartner(trx, endpoint.id),
    kind: 'webhook-disabled',
    subject: `${endpoint.url} (${endpoint.id})`,
    at: endpoint.at,
    mail: (partner) => webhookDisabledMail(partner, { ...endpoint, reason }),
  });
}

/** WEBHOOK_DISABLE_AFTER_SECONDS for people: "2 days", "1 hour", "90 minutes". */
function span(seconds: number): string {
  const [n, unit] =
    seconds % 86_400 === 0
      ? [seconds / 86_400, 'day']
      : seconds % 3600 === 0
        ? [seconds / 3600, 'hour']
        : [Math.round(seconds / 60), 'minute'];
  return `${n} ${unit}${n === 1 ? '' : 's'}`;
}

/**
 * A deprecation announced (contract section 9.2): the technical contacts of every active partner are told, in the
 * announcement's transaction.
 */
export async function noticeDeprecation(
  trx: Kysely<DB>,
  at: Date,
  deprecation: { id: string; routes: string[]; sunsetAt: Date; description: string; link: string | null },
): Promise<number> {
  let told = 0;
  for (const partnerId of await activePartnerIds(trx)) {
    const sent = await sendNotice(trx, {
      partnerId,
      kind: 'api-deprecation',
      subject: `${deprecation.routes.join(', ')} stop on ${deprecation.sunsetAt.toISOString().slice(0, 10)}`,
      onceKey: `api-deprecation:${deprecation.id}:${partnerId}`,
      at,
      mail: (partner) => deprecationMail(partner, deprecation),
    });
    told += sent?.messages ?? 0;
  }
  return told;
}
