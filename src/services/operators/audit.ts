import {
  auditEntryExists,
  insertAuditEntry,
  listAuditEntries,
  type AuditEntry,
  type AuditFilter,
} from '../../infrastructure/repositories/audit-log.js';
import { findPartner } from '../../infrastructure/repositories/partners.js';
import { GrantRoundAuditActions } from '../grants/rounds/audit-actions.js';
import type { OperatorContext } from './context.js';
import { InvalidInputError } from './operator-errors.js';

/**
 * The actions operators can take, as written to audit_log.action. One list, so that `audit list --action`
 * and the documentation agree with what the code writes.
 */
export const AuditActions = {
  partnerCreate: 'partner.create',
  partnerUpdate: 'partner.update',
  partnerSuspend: 'partner.suspend',
  partnerReactivate: 'partner.reactivate',
  contactAdd: 'partner.contact_add',
  contactRemove: 'partner.contact_remove',
  deprecationAnnounce: 'api.deprecation_announce',
  credentialIssue: 'credential.issue',
  credentialRotate: 'credential.rotate',
  credentialEmergencyRotate: 'credential.emergency_rotate',
  credentialRevoke: 'credential.revoke',
  accountsImport: 'accounts.import',
  productStatus: 'product.status',
  channelAdd: 'channel.add',
  remittanceRetry: 'remittance.retry',
  bankImport: 'bank.import',
  bankMatch: 'bank.match',
  bankConfirm: 'bank.confirm',
  bankReject: 'bank.reject',
  bankUnmatch: 'bank.unmatch',
  webhookDisable: 'webhook.disable',
  webhookEnable: 'webhook.enable',
  webhookReplay: 'webhook.replay',
  recurringCancel: 'recurring.cancel',
  debitRetry: 'debit.retry',
  donationReverse: 'donation.reverse',
  reversalRepaid: 'reversal.repaid',
  receiptView: 'receipt.view',
  receiptDownload: 'receipt.download',
  receiptResend: 'receipt.resend',
  receiptVoid: 'receipt.void',
  receiptCorrect: 'receipt.correct',
  receiptExport: 'receipt.export',
  receiptStatement: 'receipt.statement',
  operatorCreate: 'operator.create',
  operatorResetPassword: 'operator.reset_password',
  operatorDisable: 'operator.disable',
  ...GrantRoundAuditActions,
  clubBsbImport: 'club.bsb_import',
  clubBankDetailsSet: 'club.bank_details_set',
  clubBankDetailsVerify: 'club.bank_details_verify',
  clubBankDetailsReject: 'club.bank_details_reject',
  clubBankDetailsView: 'club.bank_details_view',
  clubContactAdd: 'club.contact_add',
  clubContactRemove: 'club.contact_remove',
  clubGst: 'club.gst',
  privacyEraseRequest: 'privacy.erase_request',
  privacyErase: 'privacy.erase',
  privacyEraseCancel: 'privacy.erase_cancel',
  privacyReplayErasures: 'privacy.replay_erasures',
  privacyExport: 'privacy.export',
  privacyCorrect: 'privacy.correct',
  grantAdviceView: 'grant.advice_view',
  grantAdviceDownload: 'grant.advice_download',
  grantAdviceSend: 'grant.advice_send',
  grantAcquittalRecord: 'grant.acquittal_record',
  portalUserInvite: 'portal.user_invite',
  portalUserAccept: 'portal.user_accept',
  portalUserRole: 'portal.user_role',
  portalUserRemove: 'portal.user_remove',
  portalSignIn: 'portal.sign_in',
  portalSignOut: 'portal.sign_out',
  portalRecoveryCodeUsed: 'portal.recovery_code_used',
  webhookAdd: 'webhook.add',
  webhookTest: 'webhook.test',
  webhookRotateSecret: 'webhook.rotate_secret',
  sandboxClockAdvance: 'sandbox.clock_advance',
} as const;

export type AuditAction = (typeof AuditActions)[keyof typeof AuditActions];

/** Records a change; call it inside the change's transaction. Details must never hold a secret. */
export async function audit(
  ctx: OperatorContext,
  action: AuditAction,
  subject: string | null,
  details: Record<string, unknown> = {},
) {
  await insertAuditEntry(ctx.db, { at: ctx.now(), actor: ctx.operator, action, subject, details });
}

/**
 * Newest first. A partner's entries have its id as subject; its name finds them too. `after`: the id of the last
 * entry of the page before, for the page after it by key (docs/decisions/0074-operators-listings-by-key.md).
 */
export async function listAudit(
  ctx: OperatorContext,
  filter: Omit<AuditFilter, 'subjects' | 'before'> & { subject?: string; after?: string },
): Promise<AuditEntry[]> {
  const { subject, after, ...rest } = filter;
  const before = after === undefined ? undefined : await entryAfter(ctx, after);
  const partner = subject ? await findPartner(ctx.db, subject) : undefined;
  const subjects = subject ? [...new Set([subject, ...(partner ? [partner.id] : [])])] : undefined;
  return listAuditEntries(ctx.db, { ...rest, subjects, ...(before === undefined ? {} : { before }) });
}

async function entryAfter(ctx: OperatorContext, after: string): Promise<number> {
  const id = /^\d{1,15}$/.test(after.trim()) ? Number(after.trim()) : NaN;
  if (!Number.isSafeInteger(id) || !(await auditEntryExists(ctx.db, id)))
    throw new InvalidInputError(`after: ${JSON.stringify(after)} is not the id of an audit entry.`);
  return id;
}
