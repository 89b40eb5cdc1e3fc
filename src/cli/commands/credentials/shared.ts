/** What the subcommands of this group share: options and how results are shown. */
import { Option } from 'commander';
import { Environments, type Config, type Environment } from '../../../config/index.js';
import type {
  CredentialView,
  DueCredential,
  IssuedPair,
  RotationResult,
} from '../../../services/operators/credential-admin.js';
import { fields, type Column, type Output } from '../../output.js';

export const environmentOption = (description: string) =>
  new Option('--env <environment>', description).choices(Environments);

export const credentialColumns: Column<CredentialView>[] = [
  { header: 'client_id', value: (c) => c.clientId },
  { header: 'Env', value: (c) => c.environment },
  { header: 'State', value: (c) => c.state },
  { header: 'Created', value: (c) => c.createdAt },
  { header: 'Expires', value: (c) => c.expiresAt },
  { header: 'Revoked', value: (c) => c.revokedAt },
  { header: 'Replaced by', value: (c) => c.replacedBy },
  { header: 'Last used', value: (c) => c.lastUsedAt },
];

export const dueColumns: Column<DueCredential>[] = [
  {
    header: 'Partner',
    value: (c) => (c.partnerStatus === 'active' ? c.partnerName : `${c.partnerName} (${c.partnerStatus})`),
  },
  { header: 'client_id', value: (c) => c.clientId },
  { header: 'Env', value: (c) => c.environment },
  { header: 'Created', value: (c) => c.createdAt },
  { header: 'Due', value: (c) => c.dueAt },
  { header: 'Days left', value: (c) => (c.daysLeft < 0 ? `${-c.daysLeft} overdue` : c.daysLeft) },
  { header: 'Last used', value: (c) => c.lastUsedAt },
];

export const credentialJson = (c: CredentialView) => ({
  clientId: c.clientId,
  partnerId: c.partnerId,
  partner: c.partnerName,
  partnerStatus: c.partnerStatus,
  environment: c.environment,
  state: c.state,
  createdAt: c.createdAt,
  expiresAt: c.expiresAt,
  revokedAt: c.revokedAt,
  replacedBy: c.replacedBy,
  lastUsedAt: c.lastUsedAt,
});

export const issuedJson = (i: IssuedPair) => ({
  partnerId: i.partnerId,
  partner: i.partnerName,
  environment: i.environment,
  clientId: i.clientId,
  clientSecret: i.clientSecret,
});

export const rotationJson = (r: RotationResult) => ({
  issued: issuedJson(r.issued),
  previous: credentialJson(r.previous),
});

export function issuedText(title: string, issued: IssuedPair): string {
  return [
    `${title} for partner ${JSON.stringify(issued.partnerName)} (${issued.environment}):`,
    fields([
      ['client_id', issued.clientId],
      ['client_secret', issued.clientSecret],
    ]),
    'The secret is shown only this once and cannot be recovered: hand it to the partner over a secure channel now.',
  ].join('\n');
}

/** The CLI cannot reach into running services: they notice when their credential cache entry expires. */
export const cacheBound =
  'every running service refuses it within its credential cache TTL (CREDENTIAL_CACHE_TTL_SECONDS, at most 60 s).';

export function warnOtherEnvironment(out: Output, config: Config, environment: Environment) {
  if (environment !== config.APP_ENV) {
    out.warn(
      `this deployment runs as ${config.APP_ENV}; a ${environment} pair only works on a service with APP_ENV=${environment} using this database.`,
    );
  }
}
