import type { ColumnType, Generated } from 'kysely';
import type { Timestamp } from './column-types.js';

/** Kysely's view of the tables of migration 051 (the partner portal's users and sessions), kept beside schema.ts. */

import type { PortalRole } from '../../domain/portal-roles.js';

export interface PortalUsersTable {
  id: Generated<string>;
  partner_id: string;
  email: string;
  role: PortalRole;
  status: Generated<'invited' | 'active' | 'removed'>;
  password_hash: string | null;
  totp_secret: string | null;
  /** int8: read as a string. */
  totp_last_step: ColumnType<string | null, number | null | undefined, number | null>;
  invite_token_hash: string | null;
  invite_expires_at: Timestamp | null;
  invited_by: string;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export interface PortalRecoveryCodesTable {
  user_id: string;
  code_hash: string;
  used_at: Timestamp | null;
}

export interface PortalSessionsTable {
  token_hash: string;
  user_id: string;
  csrf_token: string;
  created_at: Timestamp;
  verified_at: Timestamp | null;
  last_seen_at: Timestamp;
  expires_at: Timestamp;
  absolute_expires_at: Timestamp;
}

export interface PortalTables {
  portal_users: PortalUsersTable;
  portal_recovery_codes: PortalRecoveryCodesTable;
  portal_sessions: PortalSessionsTable;
}
