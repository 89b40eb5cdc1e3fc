import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.js';
import type { ApiDeprecation } from '../db/schema-partner-contacts.js';

export function insertDeprecation(
  db: Kysely<DB>,
  deprecation: { routes: string[]; sunsetAt: Date; description: string; link: string | null; announcedBy: string },
): Promise<ApiDeprecation> {
  return db
    .insertInto('api_deprecations')
    .values({
      routes: deprecation.routes,
      sunset_at: deprecation.sunsetAt,
      description: deprecation.description,
      link: deprecation.link,
      announced_by: deprecation.announcedBy,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Every announced deprecation, soonest sunset first (past ones included: a route may answer after its sunset). */
export function listDeprecations(db: Kysely<DB>): Promise<ApiDeprecation[]> {
  return db.selectFrom('api_deprecations').selectAll().orderBy('sunset_at').execute();
}
