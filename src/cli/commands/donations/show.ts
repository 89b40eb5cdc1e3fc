import type { Command } from 'commander';
import { donationDetail } from '../../../services/operators/donations.js';
import type { CliContext } from '../../context.js';
import { withJson } from '../../options.js';
import { detailJson, detailText } from './shared.js';

/** donations show */
export function registerDonationsShow(donations: Command, ctx: CliContext) {
  withJson(
    donations
      .command('show')
      .description('Show one donation by its reference id (donationReferenceId)')
      .argument('<referenceId>', 'e.g. DON-…'),
  ).action((referenceId: string, _options, command: Command) =>
    ctx.run(command, async ({ ops, out }) => {
      const detail = await donationDetail(ops, referenceId);
      out.emit(detailJson(detail), () => detailText(detail));
    }),
  );
}
