import type { Kysely } from 'kysely';
import { formatCents } from '../../domain/money.js';
import type { DB } from '../../infrastructure/db/schema.js';
import type { Grant } from '../../infrastructure/db/schema-grants.js';
import { clubContactEmails, lockGrantByReference, markReturned } from '../../infrastructure/repositories/grants.js';
import { enqueueMail } from '../mail/outbox.js';
import { AuditActions, audit } from '../operators/audit.js';
import { inTransaction, type OperatorContext } from '../operators/context.js';
import { ConflictError, InvalidInputError, NotFoundError } from '../operators/operator-errors.js';

/**
 * A grant the club's bank returned (docs/grants.md, "Bank confirmation and returns"): marked returned, so the club is
 * held (payment_returned) until newer bank details are verified and the amount is paid again in a later round; the
 * club's contacts are told through the outbox. From a statement's credit line, or an operator.
 */
export async function recordReturn(
  trx: Kysely<DB>,
  grant: Grant,
  change: { at: Date; by: string; reason: string; lineId?: string },
): Promise<boolean> {
  if (!(await markReturned(trx, grant.id, change))) return false;
  await audit(
    { db: trx, operator: change.by, now: () => change.at },
    AuditActions.grantReturned,
    `grant:${grant.lodgement_reference}`,
    { reason: change.reason, amountCents: String(grant.amount_cents), bankLineId: change.lineId ?? null },
  );
  const amount = formatCents(Number(grant.amount_cents));
  for (const recipient of await clubContactEmails(trx, grant.account_id))
    await enqueueMail(trx, {
      kind: 'grant-returned',
      recipient,
      subject: `Your grant ${grant.lodgement_reference} was returned by your bank`,
      text: [
        `The grant of AUD ${amount} we paid with the reference ${grant.lodgement_reference} was returned by the bank`,
        `(${change.reason}).`,
        '',
        'We will pay it again once we have verified your club’s bank details: please call us to confirm them. Until',
        'then your grants are held.',
      ].join('\n'),
      html: null,
      about: `grant:${grant.lodgement_reference}`,
    });
  return true;
}

/** `grants return`: an operator records a returned payment the statement did not show. Audited. */
export async function returnGrant(ctx: OperatorContext, reference: string, reason: string) {
  const why = reason.trim();
  if (why === '') throw new InvalidInputError('--reason must say why the bank returned the payment.');
  return inTransaction(ctx, async (tx) => {
    const grant = await lockGrantByReference(tx.db, reference.trim());
    if (!grant) throw new NotFoundError(`There is no grant with lodgement reference ${reference}.`);
    if (grant.status !== 'paid')
      throw new ConflictError(`Grant ${grant.lodgement_reference} is ${grant.status}: only a paid grant is returned.`);
    await recordReturn(tx.db, grant, { at: tx.now(), by: tx.operator, reason: why });
    return { lodgementReference: grant.lodgement_reference!, amountCents: String(grant.amount_cents), reason: why };
  });
}
