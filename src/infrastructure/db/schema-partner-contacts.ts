import type { ColumnType, Generated, Selectable } from 'kysely';
import type { Timestamp } from './column-types.js';

/** Kysely's view of partners' contacts, the API deprecations announced to them (migration 025), and the notices they
 * were sent (migration 026). */
export interface PartnerContactTables {
  partner_contacts: PartnerContactsTable;
  api_deprecations: ApiDeprecationsTable;
  partner_notices: PartnerNoticesTable;
}

export interface PartnerContactsTable {
  id: Generated<string>;
  partner_id: string;
  role: string;
  name: string;
  email: string;
  created_at: Generated<Date>;
}
export type PartnerContact = Selectable<PartnerContactsTable>;

export interface ApiDeprecationsTable {
  id: Generated<string>;
  routes: ColumnType<string[], string[], string[]>;
  sunset_at: Timestamp;
  description: string;
  link: string | null;
  announced_at: Generated<Date>;
  announced_by: string;
}
export type ApiDeprecation = Selectable<ApiDeprecationsTable>;

export interface PartnerNoticesTable {
  id: Generated<string>;
  seq: ColumnType<string, never, never>;
  partner_id: string;
  kind: string;
  roles: ColumnType<string[], string[], never>;
  subject: string;
  once_key: string | null;
  details: ColumnType<NoticeDetails, string | undefined, never>;
  created_at: Timestamp;
}
export type PartnerNotice = Selectable<PartnerNoticesTable>;

/** What a notice's attachment is made from: the remittance batches of a digest (migration 026). */
export interface NoticeDetails {
  batchIds?: string[];
  date?: string;
}
