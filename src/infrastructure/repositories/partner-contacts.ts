import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.js';
import type { PartnerContact } from '../db/schema-partner-contacts.js';

/** A partner's contacts, by role then name. */
export function contactsOf(db: Kysely<DB>, partnerId: string): Promise<PartnerContact[]> {
  return db
    .selectFrom('partner_contacts')
    .selectAll()
    .where('partner_id', '=', partnerId)
    .orderBy('role')
    .orderBy('name')
    .execute();
}

/** Adds a contact unless the partner has that e-mail in that role already; the stored contact. */
export async function insertContact(
  db: Kysely<DB>,
  contact: { partnerId: string; role: string; name: string; email: string },
): Promise<{ contact: PartnerContact; created: boolean }> {
  const inserted = await db
    .insertInto('partner_contacts')
    .values({ partner_id: contact.partnerId, role: contact.role, name: contact.name, email: contact.email })
    .onConflict((oc) => oc.doNothing())
    .returningAll()
    .executeTakeFirst();
  if (inserted) return { contact: inserted, created: true };
  const existing = await db
    .selectFrom('partner_contacts')
    .selectAll()
    .where('partner_id', '=', contact.partnerId)
    .where('role', '=', contact.role)
    .where((eb) => eb(eb.fn('lower', ['email']), '=', contact.email.toLowerCase()))
    .executeTakeFirstOrThrow();
  return { contact: existing, created: false };
}

export async function deleteContact(
  db: Kysely<DB>,
  partnerId: string,
  id: string,
): Promise<PartnerContact | undefined> {
  return db
    .deleteFrom('partner_contacts')
    .where('partner_id', '=', partnerId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
}

/** The e-mails of the contacts of these roles at a partner (every role when none is given), each once. */
export async function contactEmails(db: Kysely<DB>, partnerId: string, roles: string[]): Promise<string[]> {
  const rows = await db
    .selectFrom('partner_contacts')
    .select('email')
    .distinct()
    .where('partner_id', '=', partnerId)
    .where('role', 'in', roles)
    .execute();
  return rows.map((row) => row.email);
}
