/**
 * Who may do what in the partner portal (docs/portal.md, "Roles"): each role reads some areas and changes fewer.
 * One table, read by the portal's guard, its navigation and its pages, so a page a role cannot read is neither
 * linked nor served (docs/decisions/0084-portal-roles-and-areas.md).
 */
export const PORTAL_ROLES = ['admin', 'developer', 'finance', 'read-only'] as const;
export type PortalRole = (typeof PORTAL_ROLES)[number];

export const PORTAL_AREAS = ['credentials', 'webhooks', 'request-log', 'usage', 'money', 'sandbox', 'users'] as const;
export type PortalArea = (typeof PORTAL_AREAS)[number];

export type Access = 'read' | 'change';

const R = 'read';
const C = 'change';
const ACCESS: Record<PortalRole, Partial<Record<PortalArea, Access>>> = {
  admin: { credentials: C, webhooks: C, 'request-log': R, usage: R, money: R, sandbox: C, users: C },
  developer: { credentials: C, webhooks: C, 'request-log': R, usage: R, sandbox: C },
  finance: { usage: R, money: R },
  'read-only': { credentials: R, webhooks: R, 'request-log': R, usage: R, money: R, sandbox: R },
};

export const isPortalRole = (value: string): value is PortalRole => (PORTAL_ROLES as readonly string[]).includes(value);

/** Whether `role` may read (or, asked 'change', change) `area`; changing implies reading. */
export function may(role: PortalRole, access: Access, area: PortalArea): boolean {
  const granted = ACCESS[role][area];
  return granted === 'change' || (granted === 'read' && access === 'read');
}
