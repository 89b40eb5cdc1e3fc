/**
 * Settings that hold secrets: never echoed in a configuration error, and refused in production when they hold a
 * value copied from a template (docs/security.md, "Secrets").
 */

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
 * Why `value` cannot be a secret a deployment generated for itself, or null when it could be. Refused: a template
 * word (see `placeholderWord`); under 16 characters; and four patterns typed values show (`sk_test_xxxx…`, `0000…`,
 * `abababab…`, `0123456789abcdef`): a run of one character, few distinct characters, one sequence repeated, a run
 * of consecutive characters. Each pattern counts only where a random value of that length and alphabet (see
 * `shapeOf`) shows it with a chance below its share of `CHANCE`, so a generated secret is refused with a chance
 * below 1e-12 whatever its length. A template word can turn up in a random base64 value (`/TODO/`, about 1e-8 per
 * value), a risk accepted because template values are made of such words; in hex or decimal none can.
 */
export function placeholderReason(value: string): string | null {
  // Stripe's own prefixes say which kind of key it is, not whether it was generated: the rules judge the rest.
  // A test-mode key is allowed: a production deployment may run in Stripe test mode before it goes live.
  const trimmed = value.trim().replace(/^(sk_live_|sk_test_|rk_live_|rk_test_|whsec_)/, '');
  if (value.trim() === '') return 'is set but empty';
  const word = placeholderWord(trimmed);
  if (word) return `looks like a placeholder (contains "${word}")`;
  if (trimmed.length < MIN_SECRET_LENGTH) return `is too short to be a generated secret (< ${MIN_SECRET_LENGTH})`;
  // Base64 padding is no part of the random characters.
  const chars = Array.from(trimmed.replace(/={1,2}$/, ''));
  const shape = shapeOf(chars);
  const run = longestRun(chars, (char) => char);
  if (run >= improbableRun(shape, chars.length, CHANCE.run))
    return `looks like a placeholder (a character repeated 8 times or more: ${run} in a row)`;
  const distinct = new Set(chars).size;
  if (distinct <= improbableDistinct(shape, CHANCE.distinct))
    return `looks like a placeholder (fewer than 8 distinct characters: ${distinct} in ${chars.length})`;
  const period = shortestPeriod(chars);
  if (period !== null && chars.length * shape.size ** -(shape.random - period) < CHANCE.repeated)
    return 'looks like a placeholder (one sequence repeated)';
  const ascending = longestRun(chars, shape.successor);
  if (ascending >= improbableRun(shape, chars.length, CHANCE.ascending))
    return `looks like a placeholder (8 consecutive characters or more, 0123… or abcd…: ${ascending} in a row)`;
  return null;
}

/**
 * The highest chance that a uniformly random value trips each pattern rule, at its length and alphabet: 8e-13 in
 * all. The largest share goes to few distinct characters, so that `1212121212abab12121212abab` (4 of 16 hex digits
 * in 26 characters: at most C(16,4)·(4/16)^26 = 4.0e-13) is still refused.
 */
const CHANCE = { run: 1e-13, distinct: 5e-13, repeated: 1e-13, ascending: 1e-13 };

interface Shape {
  /** How many characters the value's generator draws from. */
  size: number;
  /** How many of its characters, from the first, are uniformly random: all but the last of base64 (see below). */
  random: number;
  /** The character after `char` in the alphabet's order (`9` then `a` in hex), for runs like `0123…`. */
  successor: (char: string) => string | undefined;
}

/**
 * The alphabet a value appears drawn from: decimal digits (10), hex digits in one case (16), or else one of 62 or
 * more characters (alphanumeric, base64, base64url), for which every bound below is computed with 62 as it only
 * shrinks as the alphabet grows. The last character of base64 carries 2 or 4 random bits when the byte count is no
 * multiple of 3, so there it is not counted as random.
 *
 * Why a random secret drawn from one of these alphabets, A, is refused with a chance below 1e-12: with the shape of
 * A itself, by the bounds below (8e-13 in all). With the shape of a smaller alphabet D (a hex value all digits, a
 * base64 value all hex), its characters are uniform over D but for base64's last, so the bounds computed for D hold
 * within a factor of 16; and that shape has a chance under 1e-3 (hex) or 1e-8 (base64) to begin with. In all, under
 * 8e-13 × (1 + 16 × 1e-3) < 1e-12.
 */
function shapeOf(chars: string[]): Shape {
  const inOrder = (order: string) => (char: string) => order[order.indexOf(char) + 1] || undefined;
  const value = chars.join('');
  if (/^[0-9]+$/.test(value)) return { size: 10, random: chars.length, successor: inOrder('0123456789') };
  if (/^[0-9a-f]+$/.test(value)) return { size: 16, random: chars.length, successor: inOrder('0123456789abcdef') };
  if (/^[0-9A-F]+$/.test(value)) return { size: 16, random: chars.length, successor: inOrder('0123456789ABCDEF') };
  return {
    size: 62,
    random: chars.length - 1,
    successor: (char) => String.fromCodePoint(char.codePointAt(0)! + 1),
  };
}

/**
 * The shortest run (8 at least) that a random value of this shape holds with a chance below `chance`. A run of k
 * holds at least k - s random characters (s of them at the end are not random), each after the first equal to (or
 * following) the one before with a chance of 1/size: at most `random` starts, each with a chance size^-(k-s-1).
 */
function improbableRun(shape: Shape, length: number, chance: number): number {
  const notRandom = length - shape.random;
  let k = 8;
  while (shape.random * shape.size ** -(k - notRandom - 1) >= chance) k++;
  return k;
}

/**
 * The most distinct characters (7 at most, 0 for none) that a random value of this shape has with a chance below
 * `chance`: having d or fewer is having every random character in one of C(size, d) sets of d characters, each
 * with a chance (d/size)^random.
 */
function improbableDistinct(shape: Shape, chance: number): number {
  let d = 7;
  while (d > 0 && binomial(shape.size, d) * (d / shape.size) ** shape.random >= chance) d--;
  return d;
}

/**
 * The length of the shortest sequence the value repeats (at least twice, whole), or null. Repeating one of p
 * characters fixes every random character after the p first: a chance of size^-(random - p), for each of at most
 * length/2 values of p; hence the bound `placeholderReason` applies.
 */
function shortestPeriod(chars: string[]): number | null {
  for (let p = 1; p <= chars.length / 2; p++) {
    if (chars.length % p === 0 && chars.every((char, i) => i < p || char === chars[i - p])) return p;
  }
  return null;
}

/** The longest run of characters each `next(previous)`. */
function longestRun(chars: string[], next: (char: string) => string | undefined): number {
  let longest = chars.length > 0 ? 1 : 0;
  for (let i = 1, run = 1; i < chars.length; i++) {
    run = chars[i] === next(chars[i - 1]!) ? run + 1 : 1;
    longest = Math.max(longest, run);
  }
  return longest;
}

function binomial(n: number, k: number): number {
  let result = 1;
  for (let i = 1; i <= k; i++) result = (result * (n - k + i)) / i;
  return result;
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
