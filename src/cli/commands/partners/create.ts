import type { Command } from 'commander';
import { createPartner } from '../../../services/operators/partners.js';
import type { CliContext } from '../../context.js';
import { collect, wholeNumber, withJson, withOperator } from '../../options.js';
import { partnerFields, partnerJson } from './shared.js';

/** partners create */
export function registerPartnersCreate(partners: Command, ctx: CliContext) {
  withOperator(
    withJson(
      partners
        .command('create')
        .description('Onboard a partner')
        .argument('<name>', 'partner name (unique); other commands accept it or the partner id')
        .requiredOption('--channel <name>', 'a channel the partner may use; repeat for several', collect)
        .option(
          '--quota-limit <requests>',
          'requests allowed per window (default: QUOTA_DEFAULT_LIMIT)',
          wholeNumber(1),
        )
        .option(
          '--quota-window <seconds>',
          'length of the quota window (default: QUOTA_DEFAULT_WINDOW_SECONDS)',
          wholeNumber(1),
        ),
    ),
  ).action(
    (name: string, options: { channel: string[]; quotaLimit?: number; quotaWindow?: number }, command: Command) =>
      ctx.run(command, async ({ ops, out, config }) => {
        const partner = await createPartner(ops, {
          name,
          channels: options.channel,
          quota: {
            limit: options.quotaLimit ?? config.QUOTA_DEFAULT_LIMIT,
            windowSeconds: options.quotaWindow ?? config.QUOTA_DEFAULT_WINDOW_SECONDS,
          },
        });
        out.emit(
          partnerJson(partner),
          () =>
            `Partner created.\n${partnerFields(partner)}\nNext: fundraiser-admin credentials issue ${JSON.stringify(partner.name)}`,
        );
      }),
  );
}
