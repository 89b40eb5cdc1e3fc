/** The audit actions of grant rounds (docs/cli.md, "Grants"), part of the audit log's list of actions. */
export const GrantRoundAuditActions = {
  grantRoundDraft: 'grant.round_draft',
  grantRoundReview: 'grant.round_review',
  grantRoundApprove: 'grant.round_approve',
  grantRoundCancel: 'grant.round_cancel',
  grantRoundPaid: 'grant.round_paid',
  grantAbaDownload: 'grant.aba_download',
  grantReturned: 'grant.returned',
  grantBankConfirmed: 'grant.bank_confirmed',
  grantRegisterExport: 'grant.register_export',
} as const;
