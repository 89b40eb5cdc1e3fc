import { deprecationProblems } from '../../domain/partner-contact.js';
import type { ApiDeprecation } from '../../infrastructure/db/schema-partner-contacts.js';
import { insertDeprecation, listDeprecations } from '../../infrastructure/repositories/api-deprecations.js';
import { noticeDeprecation } from '../notices/announcements.js';
import { AuditActions, audit } from './audit.js';
import { inTransaction, type OperatorContext } from './context.js';
import { InvalidInputError } from './operator-errors.js';

export type { ApiDeprecation };

export interface DeprecationInput {
  /** `GET /remittances`, as the OpenAPI document names the operation. */
  routes: string[];
  sunsetAt: Date;
  description: string;
  link?: string;
}

/**
 * Announces that routes will stop (contract section 9.2): refused unless the sunset is at least 30 days away. From
 * then on the routes answer `Deprecation` and `Sunset` headers, the OpenAPI document marks them deprecated (at the
 * next start), and every active partner's technical contacts are told (services/notices), in the same transaction.
 */
export async function announceDeprecation(ctx: OperatorContext, input: DeprecationInput): Promise<ApiDeprecation> {
  const problems = deprecationProblems(input, ctx.now());
  if (problems.length > 0) throw new InvalidInputError(`The deprecation was not announced: ${problems.join('; ')}.`);
  return inTransaction(ctx, async (tx) => {
    const deprecation = await insertDeprecation(tx.db, {
      routes: [...new Set(input.routes)],
      sunsetAt: input.sunsetAt,
      description: input.description.trim(),
      link: input.link ?? null,
      announcedBy: ctx.operator,
    });
    await audit(tx, AuditActions.deprecationAnnounce, deprecation.id, {
      routes: deprecation.routes,
      sunsetAt: input.sunsetAt.toISOString(),
    });
    await noticeDeprecation(tx.db, tx.now(), { ...deprecation, sunsetAt: input.sunsetAt });
    return deprecation;
  });
}

export function deprecations(ctx: OperatorContext): Promise<ApiDeprecation[]> {
  return listDeprecations(ctx.db);
}

/** Every announced deprecation, for the routes' headers and the OpenAPI document (no operator needed to read). */
export const announcedDeprecations = (db: OperatorContext['db']) => listDeprecations(db);
