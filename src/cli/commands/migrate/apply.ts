import type { Command } from 'commander';
import { schemaVersion } from '../../../infrastructure/db/migrate.js';
import type { CliContext } from '../../context.js';
import { withJson } from '../../options.js';

/** migrate apply */
export function registerMigrateApply(migrate: Command, ctx: CliContext) {
  withJson(
    migrate
      .command('apply', { isDefault: true })
      .description('Apply pending migrations (run before starting services with MIGRATE_ON_START=false)'),
  ).action((_options, command: Command) =>
    ctx.run(
      command,
      async ({ ops, out }) => {
        const result = { applied: ctx.migrationsApplied, schemaVersion: await schemaVersion(ops.db) };
        out.emit(result, () =>
          result.applied.length === 0
            ? `Schema is current (version ${result.schemaVersion}); nothing to apply.`
            : `Applied ${result.applied.join(', ')}; schema at version ${result.schemaVersion}.`,
        );
      },
      { createsDatabase: true },
    ),
  );
}
