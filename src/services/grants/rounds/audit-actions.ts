/**
 * The audit actions of grant rounds (docs/cli.md, "Audit actions"). Written with the audit log's repository, as the
 * schedule job drafts without an operator's context.
 */
export const GrantAuditActions = {
  roundDraft: 'grant.round_draft',
  roundReview: 'grant.round_review',
  roundApprove: 'grant.round_approve',
  roundCancel: 'grant.round_cancel',
  roundPaid: 'grant.round_paid',
  abaDownload: 'grant.aba_download',
  returned: 'grant.returned',
  bankConfirmed: 'grant.bank_confirmed',
  registerExport: 'grant.register_export',
} as const;
