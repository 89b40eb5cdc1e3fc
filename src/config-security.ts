import { Type } from '@sinclair/typebox';

/** Settings of the protective headers and cross-origin policy (docs/security.md), part of src/config.ts's schema. */
export const SecuritySettings = {
  TLS_TERMINATED_UPSTREAM: Type.Optional(
    Type.Boolean({
      description:
        'TLS is terminated in front of the service (load balancer, proxy): every response then carries ' +
        'Strict-Transport-Security. Default: on in every environment but sit (the quick start serves plain HTTP).',
    }),
  ),
  CORS_ALLOWED_ORIGINS: Type.Optional(
    Type.String({
      pattern: '^\\s*https?://[^,/\\s]+(\\s*,\\s*https?://[^,/\\s]+)*\\s*$',
      description:
        'Comma-separated origins (scheme://host[:port]) browsers may call the API from. Unset: none; the partner ' +
        'API is server-to-server and no response grants cross-origin access.',
    }),
  ),
};

export function hstsEnabled(config: { APP_ENV: string; TLS_TERMINATED_UPSTREAM?: boolean }): boolean {
  return config.TLS_TERMINATED_UPSTREAM ?? config.APP_ENV !== 'sit';
}

export function corsAllowedOrigins(config: { CORS_ALLOWED_ORIGINS?: string }): string[] {
  return (config.CORS_ALLOWED_ORIGINS ?? '')
    .split(',')
    .map((origin) => origin.trim())
    .filter(Boolean);
}

/**
 * Every setting that holds a secret. Names the schema does not define (yet) are skipped, so a secret setting added
 * later only needs its name here. Their values are never echoed in a configuration error.
 */
const SECRET_SETTINGS = [
  'CURSOR_SECRET',
  'WEBHOOK_SECRET_KEY',
  'CONSOLE_SESSION_SECRET',
  'STRIPE_SECRET_KEY',
  'STRIPE_WEBHOOK_SECRET',
  'METRICS_TOKEN',
] as const;

export const isSecretSetting = (name: string): boolean =>
  (SECRET_SETTINGS as readonly string[]).includes(name) || /(_SECRET|_TOKEN|_KEY|_PASSWORD)$/.test(name);

/** Shorter than this is no secret a deployment generated (the shortest key we document is 32 characters). */
const MIN_SECRET_LENGTH = 16;

/** Words that only occur in a value copied from a template or an example, never in a generated secret. */
const PLACEHOLDER_WORDS =
  /change[-_ ]?me|changeit|replace|placeholder|example|dummy|sample|secret|password|default|your[-_ ]|todo|fixme|<\s*[a-z][a-z _-]*>|\.\.\.|…/gi;

const isSingleCase = (text: string): boolean => text === text.toLowerCase() || text === text.toUpperCase();
const isAlphanumeric = (char: string | undefined): boolean => char !== undefined && /[a-z0-9]/i.test(char);

/**
 * The template word in `value`, if any. A value in one case (`changeme-please`, `MY_SECRET_KEY`) is a phrase
 * someone typed, so a word anywhere in it counts. A value mixing cases is what a random base64 secret looks like,
 * and any four letters turn up in one sooner or later (`ToDo`, `xtodoQ`): there a word counts only written in one
 * case and standing apart (`CHANGE_ME_0123abc`, `<your key>`).
 */
function placeholderWord(value: string): string | null {
  const typed = isSingleCase(value);
  for (const match of value.matchAll(PLACEHOLDER_WORDS)) {
    const start = match.index;
    const end = start + match[0].length;
    const standsApart = !isAlphanumeric(value[start - 1]) && !isAlphanumeric(value[end]);
    if (typed || (isSingleCase(match[0]) && standsApart)) return match[0];
  }
  return null;
}

/**
 * Why `value` cannot be a secret a deployment generated for itself, or null when it could be. The rules are
 * chosen so that a random value of 16 characters or more essentially never trips them (a template word, see
 * `placeholderWord`; a run of 8 identical or 8 consecutive characters, fewer than 8 distinct characters, one sequence
 * repeated), while the usual template values do:
 * `changeme`, `sk_test_xxxxxxxxxxxx`, `whsec_xxx`, `<your key>`, `0000…`, `abababab…`.
 */
export function placeholderReason(value: string): string | null {
  // Stripe's own prefixes say which kind of key it is, not whether it was generated: the rules judge the rest.
  // A test-mode key is allowed: a production deployment may run in Stripe test mode before it goes live.
  const trimmed = value.trim().replace(/^(sk_live_|sk_test_|rk_live_|rk_test_|whsec_)/, '');
  if (value.trim() === '') return 'is set but empty';
  const word = placeholderWord(trimmed);
  if (word) return `looks like a placeholder (contains "${word}")`;
  if (trimmed.length < MIN_SECRET_LENGTH) return `is too short to be a generated secret (< ${MIN_SECRET_LENGTH})`;
  if (/(.)\1{7}/.test(trimmed)) return 'looks like a placeholder (a character repeated 8 times)';
  if (new Set(trimmed).size < 8) return 'looks like a placeholder (fewer than 8 distinct characters)';
  if (/^(.+)\1+$/s.test(trimmed)) return 'looks like a placeholder (one sequence repeated)';
  if (hasAscendingRun(trimmed, 8)) return 'looks like a placeholder (8 consecutive characters: 0123…, abcd…)';
  return null;
}

function hasAscendingRun(value: string, length: number): boolean {
  let run = 1;
  for (let i = 1; i < value.length; i++) {
    run = value.charCodeAt(i) === value.charCodeAt(i - 1) + 1 ? run + 1 : 1;
    if (run >= length) return true;
  }
  return false;
}

/**
 * In production, every secret setting present in the environment must hold a real secret: not empty, not a value
 * from a template or an example. Returns one line per refused setting, naming it (never its value).
 */
export function placeholderSecrets(
  env: Record<string, string | undefined>,
  knownSettings: readonly string[],
  environment: string,
): string[] {
  if (environment !== 'production') return [];
  const refused: string[] = [];
  for (const name of SECRET_SETTINGS) {
    const value = env[name];
    if (!knownSettings.includes(name) || value === undefined) continue;
    const reason = placeholderReason(value);
    if (reason)
      refused.push(`  ${name}: ${reason}; production needs the real secret (a generated one: openssl rand -hex 32)`);
  }
  return refused;
}
