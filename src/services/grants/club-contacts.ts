import { contactProblems } from '../../domain/partner-contact.js';
import { isUuid } from '../../domain/uuid.js';
import type { ClubContact } from '../../infrastructure/db/schema-grants.js';
import {
  clubContactsOf,
  deleteClubContact,
  insertClubContact,
  updateGstRegistered,
} from '../../infrastructure/repositories/club-contacts.js';
import { AuditActions, audit } from '../operators/audit.js';
import { inTransaction, type OperatorContext } from '../operators/context.js';
import { InvalidInputError, NotFoundError } from '../operators/operator-errors.js';
import { requireClub } from './club.js';

export type { ClubContact };

export const CLUB_CONTACT_ROLES = ['finance', 'primary'] as const;
type ClubContactRole = (typeof CLUB_CONTACT_ROLES)[number];

/**
 * A club's contacts (docs/grants.md, "Bank details"): the finance contact receives remittance advices and acquittal
 * requests; every contact is told of a change to the club's bank details.
 */
export async function listClubContacts(ctx: OperatorContext, clubRef: string): Promise<ClubContact[]> {
  return clubContactsOf(ctx.db, (await requireClub(ctx, clubRef)).id);
}

/** Adds a contact (audited); the same e-mail in the same role again changes nothing. */
export async function addClubContact(
  ctx: OperatorContext,
  clubRef: string,
  input: { role: string; name: string; email: string },
): Promise<ClubContact> {
  const problems = contactProblems({ ...input, role: 'finance' });
  if (!(CLUB_CONTACT_ROLES as readonly string[]).includes(input.role))
    problems.unshift(`role must be one of ${CLUB_CONTACT_ROLES.join(', ')}`);
  if (problems.length > 0) throw new InvalidInputError(`The contact was not added: ${problems.join('; ')}.`);
  const club = await requireClub(ctx, clubRef);
  return inTransaction(ctx, async (tx) => {
    const { contact, created } = await insertClubContact(tx.db, {
      accountId: club.id,
      role: input.role as ClubContactRole,
      name: input.name.trim(),
      email: input.email.trim(),
    });
    if (created)
      await audit(tx, AuditActions.clubContactAdd, club.member_number, { role: contact.role, contactId: contact.id });
    return contact;
  });
}

/** Removes a contact (audited). */
export async function removeClubContact(
  ctx: OperatorContext,
  clubRef: string,
  contactId: string,
): Promise<ClubContact> {
  const club = await requireClub(ctx, clubRef);
  const missing = new NotFoundError(`${club.member_number} has no contact ${JSON.stringify(contactId)}.`);
  if (!isUuid(contactId.trim())) throw missing;
  return inTransaction(ctx, async (tx) => {
    const removed = await deleteClubContact(tx.db, club.id, contactId.trim());
    if (!removed) throw missing;
    await audit(tx, AuditActions.clubContactRemove, club.member_number, { role: removed.role, contactId: removed.id });
    return removed;
  });
}

/** Records whether the club is registered for GST (it then gets a recipient-created tax invoice with each grant). */
export async function setClubGst(
  ctx: OperatorContext,
  clubRef: string,
  registered: boolean,
): Promise<{ memberNumber: string; club: string; gstRegistered: boolean; changed: boolean }> {
  const club = await requireClub(ctx, clubRef);
  return inTransaction(ctx, async (tx) => {
    const before = await updateGstRegistered(tx.db, club.id, registered);
    const changed = before !== registered;
    if (changed)
      await audit(tx, AuditActions.clubGst, club.member_number, { gstRegistered: { from: before, to: registered } });
    return { memberNumber: club.member_number, club: club.name, gstRegistered: registered, changed };
  });
}
