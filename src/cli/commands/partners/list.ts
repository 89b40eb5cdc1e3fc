import { Option, type Command } from 'commander';
import { listPartners } from '../../../services/operators/partners.js';
import type { CliContext } from '../../context.js';
import { withJson } from '../../options.js';
import { tableOr } from '../../output.js';
import { partnerColumns, partnerJson } from './shared.js';

/** partners list */
export function registerPartnersList(partners: Command, ctx: CliContext) {
  withJson(
    partners
      .command('list')
      .description('List partners')
      .addOption(new Option('--status <status>', 'only partners with this status').choices(['active', 'suspended'])),
  ).action((options: { status?: 'active' | 'suspended' }, command: Command) =>
    ctx.run(command, async ({ ops, out }) => {
      const rows = await listPartners(ops, options);
      out.emit(rows.map(partnerJson), () =>
        tableOr(rows, partnerColumns, 'No partners yet. Onboard one with "partners create".'),
      );
    }),
  );
}
