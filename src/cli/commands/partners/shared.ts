/** What the subcommands of this group share: options and how results are shown. */
import type { PartnerSummary } from '../../../services/operators/partners.js';
import { fields, type Column } from '../../output.js';

const quota = (p: PartnerSummary) => `${p.quota_limit} per ${p.quota_window_seconds} s`;

export const partnerColumns: Column<PartnerSummary>[] = [
  { header: 'Name', value: (p) => p.name },
  { header: 'Id', value: (p) => p.id },
  { header: 'Status', value: (p) => p.status },
  { header: 'Channels', value: (p) => p.channels },
  { header: 'Quota', value: quota },
  { header: 'Usable credentials', value: (p) => p.usableCredentials },
];

export const partnerFields = (p: PartnerSummary) =>
  fields([
    ['Name', p.name],
    ['Id', p.id],
    ['Status', p.status],
    ['Channels', p.channels],
    ['Quota', quota(p)],
    ['Usable credentials', p.usableCredentials],
    ['Wrong secrets (24 h)', p.failedAuthentications24h],
    ['Created', p.created_at],
    ['Updated', p.updated_at],
  ]);

export const partnerJson = (p: PartnerSummary) => ({
  id: p.id,
  name: p.name,
  status: p.status,
  channels: p.channels,
  quotaLimit: p.quota_limit,
  quotaWindowSeconds: p.quota_window_seconds,
  usableCredentials: p.usableCredentials,
  failedAuthentications24h: p.failedAuthentications24h,
  createdAt: p.created_at,
  updatedAt: p.updated_at,
});
