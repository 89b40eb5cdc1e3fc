import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import { registerMigrateApply } from './apply.js';

/**
 * migrate [apply]: applies pending migrations as a deployment step of its own (with MIGRATE_ON_START=false on the
 * service). Opening the database applies them, as for every command; this one reports what it did. `apply` is
 * the default, so `fundraiser-admin migrate` is the whole step.
 */
export function registerMigrate(program: Command, ctx: CliContext) {
  const migrate = program
    .command('migrate')
    .description('Database migrations as a deployment step (`fundraiser-admin migrate` applies them)');

  registerMigrateApply(migrate, ctx);
}
