/** A partner's contacts (docs/partners.md): who is told what. Pure rules. */

export const CONTACT_ROLES = ['technical', 'finance', 'security'] as const;

// One @, a dot in the domain, no spaces or control characters: the shape of an address mail can be sent to.
const EMAIL = /^[^\s@\p{Cc}]+@[^\s@\p{Cc}]+\.[^\s@\p{Cc}]+$/u;

/** What is wrong with a contact, each naming its field; empty when it is fine. */
export function contactProblems(contact: { role: string; name: string; email: string }): string[] {
  const problems: string[] = [];
  if (!(CONTACT_ROLES as readonly string[]).includes(contact.role))
    problems.push(`role must be one of ${CONTACT_ROLES.join(', ')}`);
  const name = contact.name.trim();
  if (name === '' || name.length > 200) problems.push('name must be 1 to 200 characters');
  if (/\p{Cc}/u.test(contact.name)) problems.push('name must not contain control characters');
  if (!EMAIL.test(contact.email.trim()) || contact.email.trim().length > 254)
    problems.push('email must be an e-mail address');
  return problems;
}

/** At least this long between an announcement and the sunset of what it deprecates (contract section 9.2). */
const DEPRECATION_NOTICE_DAYS = 30;

const ROUTE = /^(GET|POST|PUT|PATCH|DELETE) \/[A-Za-z0-9._~{}/-]*$/;

/** What is wrong with a deprecation to announce; empty when it may be announced. */
export function deprecationProblems(
  deprecation: { routes: string[]; sunsetAt: Date; description: string },
  now: Date,
): string[] {
  const problems: string[] = [];
  if (deprecation.routes.length === 0) problems.push('name at least one route');
  for (const route of deprecation.routes)
    if (!ROUTE.test(route)) problems.push(`route ${JSON.stringify(route)} must be written as "GET /path"`);
  if (Number.isNaN(deprecation.sunsetAt.getTime())) problems.push('the sunset must be a date');
  else if (deprecation.sunsetAt.getTime() - now.getTime() < DEPRECATION_NOTICE_DAYS * 86_400_000)
    problems.push(
      `the sunset must be at least ${DEPRECATION_NOTICE_DAYS} days away (partners are told that long before)`,
    );
  if (deprecation.description.trim() === '') problems.push('say what changes (a description)');
  return problems;
}
