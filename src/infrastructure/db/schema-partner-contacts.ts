import type { ColumnType, Generated, Selectable } from 'kysely';
import type { Timestamp } from './column-types.js';

/** Kysely's view of partners' contacts and the API deprecations announced to them (migration 025). */
export interface PartnerContactTables {
  partner_contacts: PartnerContactsTable;
  api_deprecations: ApiDeprecationsTable;
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
