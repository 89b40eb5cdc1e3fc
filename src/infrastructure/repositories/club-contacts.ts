import type { Kysely } from 'kysely';
import type { ClubContact } from '../db/schema-grants.js';
import type { DB } from '../db/schema.js';

/** A club's contacts, by role then name. */
export function clubContactsOf(db: Kysely<DB>, accountId: string): Promise<ClubContact[]> {
  return db
    .selectFrom('club_contacts')
    .selectAll()
    .where('account_id', '=', accountId)
    .orderBy('role')
    .orderBy('name')
    .orderBy('created_at')
    .execute();
}

/** Adds a contact unless the club has that e-mail in that role already; the stored contact. */
export async function insertClubContact(
  db: Kysely<DB>,
  contact: { accountId: string; role: 'finance' | 'primary'; name: string; email: string },
): Promise<{ contact: ClubContact; created: boolean }> {
  const inserted = await db
    .insertInto('club_contacts')
    .values({ account_id: contact.accountId, role: contact.role, name: contact.name, email: contact.email })
    .onConflict((oc) => oc.doNothing())
    .returningAll()
    .executeTakeFirst();
  if (inserted) return { contact: inserted, created: true };
  const existing = await db
    .selectFrom('club_contacts')
    .selectAll()
    .where('account_id', '=', contact.accountId)
    .where('role', '=', contact.role)
    .where((eb) => eb(eb.fn('lower', ['email']), '=', contact.email.toLowerCase()))
    .executeTakeFirstOrThrow();
  return { contact: existing, created: false };
}

export function deleteClubContact(db: Kysely<DB>, accountId: string, id: string): Promise<ClubContact | undefined> {
  return db
    .deleteFrom('club_contacts')
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
}

/** Records whether a club is registered for GST; the value it had before. */
export async function updateGstRegistered(
  db: Kysely<DB>,
  accountId: string,
  registered: boolean,
): Promise<boolean | undefined> {
  const before = await db
    .selectFrom('accounts')
    .select('gst_registered')
    .where('id', '=', accountId)
    .forUpdate()
    .executeTakeFirst();
  await db.updateTable('accounts').set({ gst_registered: registered }).where('id', '=', accountId).execute();
  return before?.gst_registered;
}

export async function gstRegistered(db: Kysely<DB>, accountId: string): Promise<boolean> {
  const row = await db.selectFrom('accounts').select('gst_registered').where('id', '=', accountId).executeTakeFirst();
  return row?.gst_registered ?? false;
}
