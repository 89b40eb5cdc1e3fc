import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import { registerChannelsList } from './list.js';
import { registerChannelsAdd } from './add.js';

/** channels list | add */
export function registerChannels(program: Command, ctx: CliContext) {
  const channels = program
    .command('channels')
    .description('Partner channel names (the two of the spec exist by default)');

  registerChannelsList(channels, ctx);
  registerChannelsAdd(channels, ctx);
}
