import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import { registerPartnersCreate } from './create.js';
import { registerPartnersList } from './list.js';
import { registerPartnersShow } from './show.js';
import { registerPartnersUpdate } from './update.js';
import { registerPartnersSuspendReactivate } from './suspend-reactivate.js';
import { registerPartnersContacts } from './contacts.js';
import { registerPartnersNotices } from './notices.js';
import { registerPartnersRequests } from './requests.js';
import { registerPartnersUsers } from './users.js';

/** partners create | list | show | update | suspend | reactivate | contacts | contact-add | contact-remove | notices | requests | users */
export function registerPartners(program: Command, ctx: CliContext) {
  const partners = program
    .command('partners')
    .description('Partner platforms: onboarding, channels, quota, suspension');

  registerPartnersCreate(partners, ctx);
  registerPartnersList(partners, ctx);
  registerPartnersShow(partners, ctx);
  registerPartnersUpdate(partners, ctx);
  registerPartnersSuspendReactivate(partners, ctx);
  registerPartnersContacts(partners, ctx);
  registerPartnersNotices(partners, ctx);
  registerPartnersRequests(partners, ctx);
  registerPartnersUsers(partners, ctx);
}
