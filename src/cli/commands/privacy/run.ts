import type { Command } from 'commander';
import { retentionPolicy } from '../../../config/privacy.js';
import { deidentifyDue } from '../../../services/privacy/deidentify.js';
import type { CliContext } from '../../context.js';
import { withJson } from '../../options.js';

/** privacy run */
export function registerPrivacyRun(privacy: Command, ctx: CliContext) {
  withJson(
    privacy
      .command('run')
      .description(
        'De-identify now what outlived its retention, as the privacy-deidentify job does (resumable, exactly once)',
      ),
  ).action((_options: object, command: Command) =>
    ctx.run(command, async ({ ops, out, config }) => {
      const settings = { ...retentionPolicy(config), batchSize: config.PRIVACY_BATCH_SIZE };
      const report = await deidentifyDue(ops.db, settings, ops.now());
      out.emit(report, () =>
        Object.entries(report)
          .filter(([kind]) => kind !== 'finished')
          .map(([kind, n]) => `${kind}: ${String(n)}`)
          .join(', '),
      );
    }),
  );
}
