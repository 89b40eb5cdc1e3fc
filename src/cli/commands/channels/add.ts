import type { Command } from 'commander';
import { addChannel } from '../../../services/operators/channels.js';
import type { CliContext } from '../../context.js';
import { withJson, withOperator } from '../../options.js';

/** channels add */
export function registerChannelsAdd(channels: Command, ctx: CliContext) {
  withOperator(
    withJson(
      channels
        .command('add')
        .description('Add a channel name; partners must then send it exactly (case-sensitive)')
        .argument('<name>', 'channel name, e.g. "Events Platform"'),
    ),
  ).action((name: string, _options, command: Command) =>
    ctx.run(command, async ({ ops, out }) => {
      const added = await addChannel(ops, name);
      out.emit(added, () => `Channel ${JSON.stringify(added.name)} added. Running services see it within 30 seconds.`);
    }),
  );
}
