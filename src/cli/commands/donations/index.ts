import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import { registerDonationsShow } from './show.js';
import { registerDonationsFind } from './find.js';
import { registerDonationsList } from './list.js';
import { registerDonationsReverse } from './reverse.js';

/** donations show | find | list: support look-ups, read-only; donations reverse: the foundation takes money back. */
export function registerDonations(program: Command, ctx: CliContext) {
  const donations = program
    .command('donations')
    .description('Support look-ups (where is this donation?) and reversals by the foundation');

  registerDonationsShow(donations, ctx);
  registerDonationsFind(donations, ctx);
  registerDonationsList(donations, ctx);
  registerDonationsReverse(donations, ctx);
}
