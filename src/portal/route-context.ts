import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { Config } from '../config/index.js';
import type { PortalArea } from '../domain/portal-roles.js';
import type { App } from '../http/route-context.js';
import type { DB } from '../infrastructure/db/schema.js';
import type { AuthThrottle } from '../services/auth-throttle.js';
import type { RecurringDeps } from '../services/recurring/deps.js';
import type { OperatorContext } from '../services/operators/context.js';
import type { PortalSession, PortalSessions } from '../services/portal/sessions.js';
import type { TotpSecrets } from '../services/portal/totp.js';

/** What the portal's pages are given: the services' collaborators, never SQL of their own. */
export interface PortalDeps {
  config: Config;
  db: Kysely<DB>;
  now: () => Date;
  sessions: PortalSessions;
  totpSecrets: TotpSecrets;
  /** Failed sign-ins (password or second factor) by source address; accounts are never locked. */
  signInThrottle: AuthThrottle;
  secureCookie: boolean;
  /** The recurring-donation services' collaborators: the sandbox clock advances through them. */
  recurring: RecurringDeps;
}

/** One page (or a group of routes under one page): registered by the portal plugin (its `pages`). */
export type PortalPage = (app: App, deps: PortalDeps) => void;

export const PORTAL_SESSION_COOKIE = 'portal_session';
/** The half session between the password and the second factor. */
export const PORTAL_PENDING_COOKIE = 'portal_pending';
export const PORTAL_SIGNIN_CSRF_COOKIE = 'portal_signin_csrf';

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in partner user; set on every portal route but the public ones. */
    portalSession: PortalSession | null;
  }
  interface FastifyContextConfig {
    /** Reachable without a session (sign-in, invitation, static files). */
    portalPublic?: boolean;
    /**
     * The area a route belongs to (domain/portal-roles.ts): its GET needs the role to read the area, its POST to
     * change it. A route without an area is open to every role (overview, sign-out).
     */
    portalArea?: PortalArea;
  }
}

/** The signed-in user of a portal route. */
export function portalSessionOf(request: FastifyRequest): PortalSession {
  if (!request.portalSession) throw new Error('portal route reached without a session');
  return request.portalSession;
}

/** The services' context of a partner user: its partner scopes every read, `portal:<email>` is the audit actor. */
export interface PortalContext extends OperatorContext {
  partnerId: string;
  partnerName: string;
  /** The environment this deployment serves (APP_ENV): the partner's endpoints, events and money in it. */
  environment: string;
}

export function portalContext(request: FastifyRequest, deps: PortalDeps): PortalContext {
  const session = portalSessionOf(request);
  return {
    db: deps.db,
    now: deps.now,
    operator: `portal:${session.email}`,
    partnerId: session.partnerId,
    partnerName: session.partnerName,
    environment: deps.config.APP_ENV,
  };
}
