import { contactProblems } from '../../domain/partner-contact.js';
import type { PartnerContact } from '../../infrastructure/db/schema-partner-contacts.js';
import { contactsOf, deleteContact, insertContact } from '../../infrastructure/repositories/partner-contacts.js';
import { AuditActions, audit } from './audit.js';
import { inTransaction, type OperatorContext } from './context.js';
import { InvalidInputError, NotFoundError } from './operator-errors.js';
import { requirePartner } from './partners.js';

export type { PartnerContact };

/** A partner's contacts: who is told of rotations, remittance exceptions and deprecations (docs/partners.md). */
export async function listContacts(ctx: OperatorContext, partnerRef: string): Promise<PartnerContact[]> {
  return contactsOf(ctx.db, (await requirePartner(ctx, partnerRef)).id);
}

/** Adds a contact (audited); the same e-mail in the same role again changes nothing. */
export async function addContact(
  ctx: OperatorContext,
  partnerRef: string,
  input: { role: string; name: string; email: string },
): Promise<PartnerContact> {
  const problems = contactProblems(input);
  if (problems.length > 0) throw new InvalidInputError(`The contact was not added: ${problems.join('; ')}.`);
  const partner = await requirePartner(ctx, partnerRef);
  return inTransaction(ctx, async (tx) => {
    const { contact, created } = await insertContact(tx.db, {
      partnerId: partner.id,
      role: input.role,
      name: input.name.trim(),
      email: input.email.trim(),
    });
    if (created)
      await audit(tx, AuditActions.contactAdd, partner.id, {
        partner: partner.name,
        role: contact.role,
        contactId: contact.id,
      });
    return contact;
  });
}

/** Removes a contact (audited). */
export async function removeContact(
  ctx: OperatorContext,
  partnerRef: string,
  contactId: string,
): Promise<PartnerContact> {
  const partner = await requirePartner(ctx, partnerRef);
  return inTransaction(ctx, async (tx) => {
    const removed = await deleteContact(tx.db, partner.id, contactId);
    if (!removed) throw new NotFoundError(`${partner.name} has no contact ${JSON.stringify(contactId)}.`);
    await audit(tx, AuditActions.contactRemove, partner.id, { partner: partner.name, role: removed.role, contactId });
    return removed;
  });
}
