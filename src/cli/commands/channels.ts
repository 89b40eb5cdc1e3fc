import type { Command } from 'commander';
import { addChannel, listChannelsWithUsage } from '../../services/operators/channels.js';
import type { CliContext } from '../context.js';
import { withJson, withOperator } from '../options.js';
import { tableOr } from '../output.js';

/** channels list | add */
export function registerChannels(program: Command, ctx: CliContext) {
  const channels = program.command('channels').description('Partner channel names (the two of the spec exist by default)');

  withJson(channels.command('list').description('List channels, with how many partners and products use each')).action((_options, command: Command) =>
    ctx.run(command, async ({ ops, out }) => {
      const rows = await listChannelsWithUsage(ops);
      out.emit(rows, () =>
        tableOr(
          rows,
          [
            { header: 'Channel', value: (c) => c.name },
            { header: 'Partners', value: (c) => c.partners },
            { header: 'Products', value: (c) => c.products },
            { header: 'Added', value: (c) => c.createdAt },
          ],
          'No channels.',
        ),
      );
    }),
  );

  withOperator(withJson(channels.command('add').description('Add a channel name; partners must then send it exactly (case-sensitive)').argument('<name>', 'channel name, e.g. "Events Platform"'))).action(
    (name: string, _options, command: Command) =>
      ctx.run(command, async ({ ops, out }) => {
        const added = await addChannel(ops, name);
        out.emit(added, () => `Channel ${JSON.stringify(added.name)} added. Running services see it within 30 seconds.`);
      }),
  );
}
