import { Type } from '@sinclair/typebox';

/** The operator console (docs/console.md). */
export const ConsoleSettings = {
  CONSOLE_ENABLED: Type.Optional(
    Type.Boolean({
      description: 'Serve the operator console at /console (default: on outside production, off in production).',
    }),
  ),
  CONSOLE_SESSION_IDLE_MINUTES: Type.Integer({
    minimum: 1,
    maximum: 24 * 60,
    default: 120,
    description: 'A console session ends after this long without a request.',
  }),
  CONSOLE_SIGNIN_FAILURES_PER_ADDRESS: Type.Integer({
    minimum: 1,
    default: 20,
    description:
      'Failed console sign-ins from one address per AUTH_FAILURE_WINDOW_SECONDS before that address is refused (429).',
  }),
  CONSOLE_SECURE_COOKIE: Type.Optional(
    Type.Boolean({
      description:
        'Mark the console cookies Secure (HTTPS only); default: on in production or when PUBLIC_BASE_URL is https.',
    }),
  ),
};

/** The console only admits operators created with the CLI, but production must opt in (and should run behind TLS). */
export function consoleEnabled(config: { APP_ENV: string; CONSOLE_ENABLED?: boolean }): boolean {
  return config.CONSOLE_ENABLED ?? config.APP_ENV !== 'production';
}

export function consoleSecureCookie(config: {
  APP_ENV: string;
  CONSOLE_SECURE_COOKIE?: boolean;
  PUBLIC_BASE_URL?: string;
}): boolean {
  return (
    config.CONSOLE_SECURE_COOKIE ??
    (config.APP_ENV === 'production' || Boolean(config.PUBLIC_BASE_URL?.startsWith('https:')))
  );
}
