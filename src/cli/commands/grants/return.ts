import type { Command } from 'commander';
import { returnGrant } from '../../../services/grants/returns.js';
import type { CliContext } from '../../context.js';
import { withJson, withOperator } from '../../options.js';

/** grants return */
export function registerGrantsReturn(grants: Command, ctx: CliContext) {
  withOperator(
    withJson(
      grants
        .command('return')
        .description("Record a paid grant the club's bank returned: the club is held and told (audited)")
        .requiredOption('--grant <reference>', 'the grant’s lodgement reference, e.g. FG12-3')
        .requiredOption('--reason <text>', 'why the bank returned it (e.g. account closed)'),
    ),
  ).action((options: { grant: string; reason: string }, command: Command) =>
    ctx.run(command, async ({ ops, out }) => {
      const returned = await returnGrant(ops, options.grant, options.reason);
      out.emit(
        returned,
        () => `Grant ${returned.lodgementReference} is returned; the club is held and its contacts are told.`,
      );
    }),
  );
}
