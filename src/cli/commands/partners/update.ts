import type { Command } from 'commander';
import { changePartner } from '../../../services/operators/partners.js';
import type { CliContext } from '../../context.js';
import { collect, wholeNumber, withJson, withOperator } from '../../options.js';
import { partnerFields, partnerJson } from './shared.js';

/** partners update */
export function registerPartnersUpdate(partners: Command, ctx: CliContext) {
  withOperator(
    withJson(
      partners
        .command('update')
        .description(
          "Change a partner's channels or quota (running services apply it within the credential cache TTL, at most 60 s)",
        )
        .argument('<partner>', 'partner name or id')
        .option('--channel <name>', 'set the channels to exactly these; repeat for several', collect)
        .option('--add-channel <name>', 'add a channel; repeatable', collect)
        .option('--remove-channel <name>', 'remove a channel; repeatable', collect)
        .option('--quota-limit <requests>', 'requests allowed per window', wholeNumber(1))
        .option('--quota-window <seconds>', 'length of the quota window in seconds', wholeNumber(1)),
    ),
  ).action(
    (
      ref: string,
      options: {
        channel?: string[];
        addChannel?: string[];
        removeChannel?: string[];
        quotaLimit?: number;
        quotaWindow?: number;
      },
      command: Command,
    ) =>
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
}
