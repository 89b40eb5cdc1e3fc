import type { Command } from 'commander';
import { listChannelsWithUsage } from '../../../services/operators/channels.js';
import type { CliContext } from '../../context.js';
import { withJson } from '../../options.js';
import { tableOr } from '../../output.js';

/** channels list */
export function registerChannelsList(channels: Command, ctx: CliContext) {
  withJson(channels.command('list').description('List channels, with how many partners and products use each')).action(
    (_options, command: Command) =>
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
}
