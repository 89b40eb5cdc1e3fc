// The library's core, not its Node entry: that one loads and registers all ~80 languages' names (~1.5 MB of heap
// held for life), and only English names are looked up here
// (docs/decisions/0091-idle-memory-floor-of-the-embedded-service.md).
import countries from 'i18n-iso-countries/index.js';
import en from 'i18n-iso-countries/langs/en.json' with { type: 'json' };

countries.registerLocale(en);

/** Australian states and territories (section 2.5): the code or the full name, any case. */
const STATES: Record<string, string> = {
  ACT: 'Australian Capital Territory',
  NSW: 'New South Wales',
  NT: 'Northern Territory',
  QLD: 'Queensland',
  SA: 'South Australia',
  TAS: 'Tasmania',
  VIC: 'Victoria',
  WA: 'Western Australia',
};
const STATE_BY_NAME = new Map(Object.entries(STATES).map(([code, name]) => [name.toUpperCase(), code]));

/** The state code for a code or full name in any case, or null. */
export function normaliseState(value: string): string | null {
  const key = value.trim().toUpperCase().replace(/\s+/g, ' ');
  if (key in STATES) return key;
  return STATE_BY_NAME.get(key) ?? null;
}

/** The ISO 3166 alpha-2 code for a code or an English country name in any case, or null. */
export function normaliseCountry(value: string): string | null {
  const trimmed = value.trim();
  if (/^[A-Za-z]{2}$/.test(trimmed)) {
    const code = trimmed.toUpperCase();
    return countries.isValid(code) ? code : null;
  }
  return countries.getAlpha2Code(trimmed, 'en') ?? null;
}

/** Australian postcodes are four digits; elsewhere we accept what the partner sends. */
export function isValidPostalCode(postalCode: string, countryCode: string | null): boolean {
  if (countryCode === null || countryCode === 'AU') return /^\d{4}$/.test(postalCode.trim());
  return postalCode.trim().length > 0;
}
