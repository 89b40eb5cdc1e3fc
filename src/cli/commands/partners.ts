import { Option, type Command } from 'commander';
import { listCredentials } from '../../services/operators/credentials.js';
import { changePartner, createPartner, listPartners, setPartnerStatus, showPartner, type PartnerSummary } from '../../services/operators/partners.js';
import type { CliContext } from '../context.js';
import { collect, wholeNumber, withJson, withOperator } from '../options.js';
import { fields, tableOr, type Column } from '../output.js';
import { credentialColumns, credentialJson } from './credentials.js';

/** partners create | list | show | update | suspend | reactivate */
export function registerPartners(program: Command, ctx: CliContext) {
  const partners = program.command('partners').description('Partner platforms: onboarding, channels, quota, suspension');

  withOperator(
    withJson(
      partners
        .command('create')
        .description('Onboard a partner')
        .argument('<name>', 'partner name (unique); other commands accept it or the partner id')
        .requiredOption('--channel <name>', 'a channel the partner may use; repeat for several', collect)
        .option('--quota-limit <requests>', 'requests allowed per window (default: QUOTA_DEFAULT_LIMIT)', wholeNumber(1))
        .option('--quota-window <seconds>', 'length of the quota window (default: QUOTA_DEFAULT_WINDOW_SECONDS)', wholeNumber(1)),
    ),
  ).action((name: string, options: { channel: string[]; quotaLimit?: number; quotaWindow?: number }, command: Command) =>
    ctx.run(command, async ({ ops, out, config }) => {
      const partner = await createPartner(ops, {
        name,
        channels: options.channel,
        quota: { limit: options.quotaLimit ?? config.QUOTA_DEFAULT_LIMIT, windowSeconds: options.quotaWindow ?? config.QUOTA_DEFAULT_WINDOW_SECONDS },
      });
      out.emit(partnerJson(partner), () => `Partner created.\n${partnerFields(partner)}\nNext: fundraiser-admin credentials issue ${JSON.stringify(partner.name)}`);
    }),
  );

  withJson(
    partners
      .command('list')
      .description('List partners')
      .addOption(new Option('--status <status>', 'only partners with this status').choices(['active', 'suspended'])),
  ).action((options: { status?: 'active' | 'suspended' }, command: Command) =>
    ctx.run(command, async ({ ops, out }) => {
      const rows = await listPartners(ops, options);
      out.emit(rows.map(partnerJson), () => tableOr(rows, partnerColumns, 'No partners yet. Onboard one with "partners create".'));
    }),
  );

  withJson(partners.command('show').description('Show a partner and its credentials (never secrets)').argument('<partner>', 'partner name or id')).action(
    (ref: string, _options, command: Command) =>
      ctx.run(command, async ({ ops, out }) => {
        const partner = await showPartner(ops, ref);
        const credentials = await listCredentials(ops, { partner: partner.id });
        out.emit({ ...partnerJson(partner), credentials: credentials.map(credentialJson) }, () =>
          [partnerFields(partner), 'Credentials:', tableOr(credentials, credentialColumns, '(none: issue one with "credentials issue")')].join('\n'),
        );
      }),
  );

  withOperator(
    withJson(
      partners
        .command('update')
        .description("Change a partner's channels or quota (running services apply it within the credential cache TTL, at most 60 s)")
        .argument('<partner>', 'partner name or id')
        .option('--channel <name>', 'set the channels to exactly these; repeat for several', collect)
        .option('--add-channel <name>', 'add a channel; repeatable', collect)
        .option('--remove-channel <name>', 'remove a channel; repeatable', collect)
        .option('--quota-limit <requests>', 'requests allowed per window', wholeNumber(1))
        .option('--quota-window <seconds>', 'length of the quota window in seconds', wholeNumber(1)),
    ),
  ).action(
    (ref: string, options: { channel?: string[]; addChannel?: string[]; removeChannel?: string[]; quotaLimit?: number; quotaWindow?: number }, command: Command) =>
      ctx.run(command, async ({ ops, out }) => {
        const partner = await changePartner(ops, ref, {
          channels: options.channel,
          addChannels: options.addChannel,
          removeChannels: options.removeChannel,
          quotaLimit: options.quotaLimit,
          quotaWindowSeconds: options.quotaWindow,
        });
        out.emit(partnerJson(partner), () => `Partner updated.\n${partnerFields(partner)}`);
      }),
  );

  for (const [verb, status, description] of [
    ['suspend', 'suspended', 'Suspend a partner: every call with any of its credentials gets 401 (within 60 s on every instance)'],
    ['reactivate', 'active', "Reactivate a suspended partner: its credentials work again as they were"],
  ] as const) {
    withOperator(
      withJson(partners.command(verb).description(description).argument('<partner>', 'partner name or id').option('--reason <text>', 'why, for the audit log')),
    ).action((ref: string, options: { reason?: string }, command: Command) =>
      ctx.run(command, async ({ ops, out }) => {
        const partner = await setPartnerStatus(ops, ref, status, options.reason);
        out.emit(partnerJson(partner), () => `Partner ${JSON.stringify(partner.name)} is now ${partner.status}.`);
      }),
    );
  }
}

const quota = (p: PartnerSummary) => `${p.quota_limit} per ${p.quota_window_seconds} s`;

const partnerColumns: Column<PartnerSummary>[] = [
  { header: 'Name', value: (p) => p.name },
  { header: 'Id', value: (p) => p.id },
  { header: 'Status', value: (p) => p.status },
  { header: 'Channels', value: (p) => p.channels },
  { header: 'Quota', value: quota },
  { header: 'Usable credentials', value: (p) => p.usableCredentials },
];

const partnerFields = (p: PartnerSummary) =>
  fields([
    ['Name', p.name],
    ['Id', p.id],
    ['Status', p.status],
    ['Channels', p.channels],
    ['Quota', quota(p)],
    ['Usable credentials', p.usableCredentials],
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
  createdAt: p.created_at,
  updatedAt: p.updated_at,
});
