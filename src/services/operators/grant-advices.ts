import { messagesAbout } from '../../infrastructure/repositories/mail-outbox.js';
import { financeContactsOf } from '../../infrastructure/repositories/grant-advices.js';
import { grantByReference, grantsAwaitingAdvice } from '../../infrastructure/repositories/grant-lookups.js';
import { advicePdfOf } from '../grants/advice/content.js';
import { issueAdvices, type AdvicePolicy } from '../grants/advice/issue.js';
import type { MailAttachment } from '../mail/outbox.js';
import { enqueueMail } from '../mail/outbox.js';
import { AuditActions, audit } from './audit.js';
import { inTransaction, type OperatorContext } from './context.js';
import { ConflictError, NotFoundError } from './operator-errors.js';

/**
 * Remittance advices for operators (docs/grants.md, "Operators"): a grant's advice and its messages, its PDF, a copy
 * sent again on request, and the advices waiting for a club's finance contact. Every step is audited.
 */
export interface AdviceView {
  lodgementReference: string;
  club: string;
  memberNumber: string;
  round: number;
  amountCents: number;
  status: string;
  advisedAt: string | null;
  rctiNumber: string | null;
  financeContacts: string[];
  messages: { status: string; attempts: number; lastError: string | null; createdAt: string }[];
}

async function requireGrant(ctx: OperatorContext, reference: string) {
  const grant = await grantByReference(ctx.db, reference.trim());
  if (!grant) throw new NotFoundError(`No grant with lodgement reference ${JSON.stringify(reference)}.`);
  return grant;
}

export async function showAdvice(ctx: OperatorContext, reference: string): Promise<AdviceView> {
  const grant = await requireGrant(ctx, reference);
  const messages = await messagesAbout(ctx.db, `grant:${grant.lodgement_reference}`);
  await audit(ctx, AuditActions.grantAdviceView, grant.lodgement_reference);
  return {
    lodgementReference: grant.lodgement_reference!,
    club: grant.club_name,
    memberNumber: grant.member_number,
    round: grant.round_number,
    amountCents: Number(grant.amount_cents),
    status: grant.status,
    advisedAt: grant.advised_at ? new Date(grant.advised_at).toISOString() : null,
    rctiNumber: grant.rcti_number,
    financeContacts: await financeContactsOf(ctx.db, grant.id),
    messages: messages
      .filter((m) => m.kind === 'grant-advice')
      .map((m) => ({
        status: m.status,
        attempts: m.attempts,
        lastError: m.last_error,
        createdAt: new Date(m.created_at).toISOString(),
      })),
  };
}

/** The advice's PDF as the club got it (rendered from the grant's rows); the download is audited. */
export async function adviceDownload(ctx: OperatorContext, reference: string): Promise<MailAttachment> {
  const grant = await requireGrant(ctx, reference);
  const pdf = await advicePdfOf(ctx.db, grant.id);
  if (!pdf) throw new ConflictError(`Grant ${grant.lodgement_reference} has no advice yet (${whyNot(grant)}).`);
  await audit(ctx, AuditActions.grantAdviceDownload, grant.lodgement_reference);
  return pdf;
}

const whyNot = (grant: { status: string; round_status: string }) =>
  grant.status !== 'paid' || grant.round_status !== 'paid'
    ? `it is ${grant.status} in a round ${grant.round_status}: advices go with paid grants`
    : 'its club has no finance contact';

/**
 * Sends a grant's advice on request: issued now if it was waiting (its club has gained a finance contact), else a
 * copy of the advice issued, to every finance contact, through the outbox. Audited.
 */
export async function sendAdvice(
  ctx: OperatorContext,
  reference: string,
  policy: AdvicePolicy,
): Promise<{ issued: boolean; messages: number }> {
  const grant = await requireGrant(ctx, reference);
  if (grant.advised_at === null) {
    const report = await issueAdvices(ctx.db, { grantIds: [grant.id] }, policy, ctx.now);
    if (report.advised === 0)
      throw new ConflictError(`Cannot send the advice of grant ${grant.lodgement_reference}: ${whyNot(grant)}.`);
    await audit(ctx, AuditActions.grantAdviceSend, grant.lodgement_reference, { issued: true });
    return { issued: true, messages: report.messages };
  }
  return inTransaction(ctx, async (tx) => {
    const emails = await financeContactsOf(tx.db, grant.id);
    if (emails.length === 0)
      throw new ConflictError(`Grant ${grant.lodgement_reference}'s club has no finance contact to send it to.`);
    for (const email of emails)
      await enqueueMail(tx.db, {
        kind: 'grant-advice',
        recipient: email,
        attachments: [{ type: 'grant-advice', id: grant.id }],
        about: `grant:${grant.lodgement_reference}`,
      });
    await audit(tx, AuditActions.grantAdviceSend, grant.lodgement_reference, { issued: false, copies: emails.length });
    return { issued: false, messages: emails.length };
  });
}

/** Paid grants whose advice waits for their club's finance contact. */
export async function waitingAdvices(ctx: OperatorContext, limit: number) {
  const rows = await grantsAwaitingAdvice(ctx.db, limit);
  return rows.map((r) => ({
    lodgementReference: r.lodgement_reference!,
    club: r.club_name,
    memberNumber: r.member_number,
    round: r.round_number,
    amountCents: Number(r.amount_cents),
    paidAt: r.paid_at ? new Date(r.paid_at).toISOString() : null,
  }));
}
