import { Option, type Command } from 'commander';
import { Environments, type Config, type Environment } from '../../config.js';
import {
  credentialsDueForRotation,
  emergencyRotateCredential,
  issuePartnerCredential,
  listCredentials,
  MAX_OVERLAP_DAYS,
  revokeCredential,
  rotateCredential,
  type CredentialView,
  type DueCredential,
  type IssuedPair,
  type RotationResult,
} from '../../services/operators/credentials.js';
import { DEFAULT_OVERLAP_DAYS, DEFAULT_ROTATION_PERIOD_DAYS, type CredentialState } from '../../services/operators/credential-state.js';
import type { CliContext } from '../context.js';
import { wholeNumber, withJson, withOperator } from '../options.js';
import { fields, formatTime, tableOr, type Column, type Output } from '../output.js';

const environmentOption = (description: string) => new Option('--env <environment>', description).choices(Environments);

/** credentials issue | list | rotate | emergency-rotate | revoke | due */
export function registerCredentials(program: Command, ctx: CliContext) {
  const credentials = program.command('credentials').description('Partner client_id/client_secret pairs: issue, rotate, revoke (spec section 5)');

  withOperator(
    withJson(
      credentials
        .command('issue')
        .description('Issue a new pair for a partner; the secret is printed once and only its hash is kept')
        .argument('<partner>', 'partner name or id')
        .addOption(environmentOption('environment the pair works in (default: APP_ENV of this deployment)')),
    ),
  ).action((ref: string, options: { env?: Environment }, command: Command) =>
    ctx.run(command, async ({ ops, out, config }) => {
      const environment = options.env ?? config.APP_ENV;
      warnOtherEnvironment(out, config, environment);
      const issued = await issuePartnerCredential(ops, ref, environment);
      if (issued.partnerStatus !== 'active') out.warn(`partner ${JSON.stringify(issued.partnerName)} is ${issued.partnerStatus}: the pair works only once it is reactivated.`);
      out.emit(issuedJson(issued), () => issuedText('New credentials', issued));
    }),
  );

  withJson(
    credentials
      .command('list')
      .description('List credentials (never secrets): state, created, expires, revoked, last used')
      .option('--partner <partner>', 'only this partner (name or id)')
      .addOption(environmentOption('only this environment'))
      .addOption(new Option('--state <state>', 'only credentials in this state').choices(['active', 'retiring', 'expired', 'revoked'])),
  ).action((options: { partner?: string; env?: Environment; state?: CredentialState }, command: Command) =>
    ctx.run(command, async ({ ops, out }) => {
      const rows = await listCredentials(ops, { partner: options.partner, environment: options.env, state: options.state });
      out.emit(rows.map(credentialJson), () => tableOr(rows, [{ header: 'Partner', value: (c) => c.partnerName }, ...credentialColumns], 'No credentials match.'));
    }),
  );

  withOperator(
    withJson(
      credentials
        .command('rotate')
        .description('Scheduled rotation: issue a new pair; the old one keeps working for the overlap window, then stops')
        .argument('<client_id>', 'the pair to replace')
        .option('--overlap-days <days>', `how long the old pair keeps working (1-${MAX_OVERLAP_DAYS})`, wholeNumber(1, MAX_OVERLAP_DAYS), DEFAULT_OVERLAP_DAYS),
    ),
  ).action((clientId: string, options: { overlapDays: number }, command: Command) =>
    ctx.run(command, async ({ ops, out }) => {
      const result = await rotateCredential(ops, clientId, options.overlapDays);
      out.emit(rotationJson(result), () =>
        [
          issuedText('Replacement credentials', result.issued),
          `The old pair ${clientId} keeps working until ${formatTime(result.previous.expiresAt!)} (${options.overlapDays}-day overlap), then stops.`,
        ].join('\n'),
      );
    }),
  );

  withOperator(
    withJson(
      credentials
        .command('emergency-rotate')
        .description('Emergency rotation (leaked secret): issue a new pair and stop the old one at once, with no overlap')
        .argument('<client_id>', 'the compromised pair')
        .option('--reason <text>', 'why, for the audit log'),
    ),
  ).action((clientId: string, options: { reason?: string }, command: Command) =>
    ctx.run(command, async ({ ops, out }) => {
      const result = await emergencyRotateCredential(ops, clientId, options.reason);
      out.emit(rotationJson(result), () =>
        [issuedText('Replacement credentials', result.issued), `The old pair ${clientId} is revoked: ${cacheBound}`].join('\n'),
      );
    }),
  );

  withOperator(
    withJson(
      credentials
        .command('revoke')
        .description('Stop a pair at once (also one inside a rotation overlap), without issuing a new one')
        .argument('<client_id>', 'the pair to stop')
        .option('--reason <text>', 'why, for the audit log'),
    ),
  ).action((clientId: string, options: { reason?: string }, command: Command) =>
    ctx.run(command, async ({ ops, out }) => {
      const { revoked, usableLeft } = await revokeCredential(ops, clientId, options.reason);
      if (usableLeft === 0) out.warn(`partner ${JSON.stringify(revoked.partnerName)} has no usable credentials left in ${revoked.environment}.`);
      out.emit({ ...credentialJson(revoked), usableLeft }, () => `Credential ${clientId} revoked: ${cacheBound}`);
    }),
  );

  withJson(
    credentials
      .command('due')
      .description('Report pairs due for the scheduled (annual) rotation within a number of days, or overdue')
      .option('--within <days>', 'due within this many days', wholeNumber(0, 3650), 30)
      .option('--period-days <days>', 'rotation period', wholeNumber(1, 3650), DEFAULT_ROTATION_PERIOD_DAYS)
      .addOption(environmentOption('only this environment')),
  ).action((options: { within: number; periodDays: number; env?: Environment }, command: Command) =>
    ctx.run(command, async ({ ops, out }) => {
      const due = await credentialsDueForRotation(ops, { withinDays: options.within, periodDays: options.periodDays, environment: options.env });
      out.emit(
        due.map((c) => ({ ...credentialJson(c), dueAt: c.dueAt, daysLeft: c.daysLeft })),
        () =>
          tableOr(
            due,
            dueColumns,
            `No credentials due for rotation within ${options.within} days (period ${options.periodDays} days).`,
          ),
      );
    }),
  );
}

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

const dueColumns: Column<DueCredential>[] = [
  { header: 'Partner', value: (c) => (c.partnerStatus === 'active' ? c.partnerName : `${c.partnerName} (${c.partnerStatus})`) },
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

const issuedJson = (i: IssuedPair) => ({ partnerId: i.partnerId, partner: i.partnerName, environment: i.environment, clientId: i.clientId, clientSecret: i.clientSecret });

const rotationJson = (r: RotationResult) => ({ issued: issuedJson(r.issued), previous: credentialJson(r.previous) });

function issuedText(title: string, issued: IssuedPair): string {
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
const cacheBound = 'every running service refuses it within its credential cache TTL (CREDENTIAL_CACHE_TTL_SECONDS, at most 60 s).';

function warnOtherEnvironment(out: Output, config: Config, environment: Environment) {
  if (environment !== config.APP_ENV) {
    out.warn(`this deployment runs as ${config.APP_ENV}; a ${environment} pair only works on a service with APP_ENV=${environment} using this database.`);
  }
}
