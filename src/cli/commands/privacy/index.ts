import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import { registerPrivacyApprove } from './approve.js';
import { registerPrivacyCancel } from './cancel.js';
import { registerPrivacyCorrect } from './correct.js';
import { registerPrivacyErase } from './erase.js';
import { registerPrivacyExport } from './export.js';
import { registerPrivacyReplayErasures } from './replay-erasures.js';
import { registerPrivacyRun } from './run.js';
import { registerPrivacyStatus } from './status.js';

/** privacy status | run | export | erase | approve | cancel | correct | replay-erasures: personal information (docs/privacy.md). */
export function registerPrivacy(program: Command, ctx: CliContext) {
  const privacy = program
    .command('privacy')
    .description(
      'Personal information: access exports, erasure requests, corrections, replays after a restore (docs/privacy.md)',
    );

  registerPrivacyStatus(privacy, ctx);
  registerPrivacyRun(privacy, ctx);
  registerPrivacyExport(privacy, ctx);
  registerPrivacyErase(privacy, ctx);
  registerPrivacyApprove(privacy, ctx);
  registerPrivacyCancel(privacy, ctx);
  registerPrivacyCorrect(privacy, ctx);
  registerPrivacyReplayErasures(privacy, ctx);
}
