import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import { registerGrantsAba } from './aba.js';
import { registerGrantsAcquittalRecord } from './acquittal-record.js';
import { registerGrantsAcquittals } from './acquittals.js';
import { registerGrantsAdvice } from './advice.js';
import { registerGrantsApprove } from './approve.js';
import { registerGrantsBankPending } from './bank-pending.js';
import { registerGrantsBankReject } from './bank-reject.js';
import { registerGrantsBankSet } from './bank-set.js';
import { registerGrantsBankShow } from './bank-show.js';
import { registerGrantsBankVerify } from './bank-verify.js';
import { registerGrantsBsbImport } from './bsb-import.js';
import { registerGrantsCancel } from './cancel.js';
import { registerGrantsClubContactAdd } from './club-contact-add.js';
import { registerGrantsClubContactRemove } from './club-contact-remove.js';
import { registerGrantsClubContacts } from './club-contacts.js';
import { registerGrantsClubGst } from './club-gst.js';
import { registerGrantsDraft } from './draft.js';
import { registerGrantsPaid } from './paid.js';
import { registerGrantsRegister } from './register.js';
import { registerGrantsReturn } from './return.js';
import { registerGrantsReview } from './review.js';
import { registerGrantsRounds } from './rounds.js';
import { registerGrantsShow } from './show.js';

/** grants …: grants to clubs (docs/grants.md). Each subcommand is one line here. */
export function registerGrants(program: Command, ctx: CliContext) {
  const grants = program
    .command('grants')
    .description('Grants to clubs: rounds (draft, review, approve, pay), the ABA file, advices, acquittals');

  registerGrantsDraft(grants, ctx);
  registerGrantsRounds(grants, ctx);
  registerGrantsShow(grants, ctx);
  registerGrantsReview(grants, ctx);
  registerGrantsApprove(grants, ctx);
  registerGrantsCancel(grants, ctx);
  registerGrantsAba(grants, ctx);
  registerGrantsPaid(grants, ctx);
  registerGrantsReturn(grants, ctx);
  registerGrantsRegister(grants, ctx);
  registerGrantsBsbImport(grants, ctx);
  registerGrantsBankSet(grants, ctx);
  registerGrantsBankVerify(grants, ctx);
  registerGrantsBankReject(grants, ctx);
  registerGrantsBankShow(grants, ctx);
  registerGrantsBankPending(grants, ctx);
  registerGrantsClubContacts(grants, ctx);
  registerGrantsClubContactAdd(grants, ctx);
  registerGrantsClubContactRemove(grants, ctx);
  registerGrantsClubGst(grants, ctx);
  registerGrantsAdvice(grants, ctx);
  registerGrantsAcquittals(grants, ctx);
  registerGrantsAcquittalRecord(grants, ctx);
}
