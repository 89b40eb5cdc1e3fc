import type { Command } from 'commander';
import { listOperatorAccounts, type OperatorView } from '../../../services/console/operator-accounts.js';
import type { CliContext } from '../../context.js';
import { withJson } from '../../options.js';
import { tableOr } from '../../output.js';

/** operators list */
export function registerOperatorsList(operators: Command, ctx: CliContext) {
  withJson(operators.command('list').description('List console operators')).action((_o, command: Command) =>
    ctx.run(command, async ({ ops, out }) => {
      const rows = await listOperatorAccounts(ops);
      out.emit(rows, () =>
        tableOr(
          rows,
          [
            { header: 'E-mail', value: (o: OperatorView) => o.email },
            { header: 'Role', value: (o) => o.role },
            { header: 'Status', value: (o) => o.status },
            { header: 'Locked until', value: (o) => o.lockedUntil },
            { header: 'Created', value: (o) => o.createdAt },
          ],
          'No operators yet: create one with "operators create <email> --role admin".',
        ),
      );
    }),
  );
}
