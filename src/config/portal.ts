import { Type } from '@sinclair/typebox';

/** The partner portal (docs/portal.md). */
export const PortalSettings = {
  PORTAL_ENABLED: Type.Optional(
    Type.Boolean({
      description: 'Serve the partner portal at /portal (default: on outside production, off in production).',
    }),
  ),
  PORTAL_SESSION_IDLE_MINUTES: Type.Integer({
    minimum: 1,
    maximum: 24 * 60,
    default: 30,
    description: 'A portal session ends after this long without a request.',
  }),
  PORTAL_SESSION_MAX_HOURS: Type.Integer({
    minimum: 1,
    maximum: 7 * 24,
    default: 12,
    description: 'A portal session ends this long after sign-in, however busy.',
  }),
  PORTAL_INVITATION_HOURS: Type.Integer({
    minimum: 1,
    maximum: 30 * 24,
    default: 72,
    description: 'How long the link of a portal invitation can be used.',
  }),
  PORTAL_SIGNIN_FAILURES_PER_ADDRESS: Type.Integer({
    minimum: 1,
    default: 20,
    description:
      'Failed portal sign-ins (password or second factor) from one address per AUTH_FAILURE_WINDOW_SECONDS before that address is refused (429).',
  }),
};

/** Partners' people sign in only when invited, but production must opt in (and run behind TLS). */
export function portalEnabled(config: { APP_ENV: string; PORTAL_ENABLED?: boolean }): boolean {
  return config.PORTAL_ENABLED ?? config.APP_ENV !== 'production';
}
