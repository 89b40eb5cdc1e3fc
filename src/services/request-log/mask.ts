import type { TObject } from '@sinclair/typebox';
import { DonationRequest } from '../../contract/donation.js';
import { MandateRequest } from '../../contract/mandate.js';

/** What a masked value reads as in the log. */
const MASKED = '[masked]';

/** The string properties of a contract object: each names a person's detail there. */
function textFields(schema: TObject): string[] {
  return Object.entries(schema.properties)
    .filter(([, property]) => property.type === 'string' || property.type === 'object' || 'anyOf' in property)
    .map(([name]) => name);
}

const donor = DonationRequest.properties.donor;

/**
 * Keys whose values never reach the request log, in any body, at any depth (docs/decisions/0088-request-log-masked-
 * and-buffered.md). The donor's and the mandate's fundraiser contact's fields come from the contract itself, so a
 * field added there is masked here; the address's parts, for answers that list them on their own; then the names a
 * partner's free-form `sourceMetadata` is likely to use for a person; then every secret the API sends or receives.
 */
const MASKED_KEYS = new Set(
  [
    ...textFields(donor),
    ...textFields(donor.properties.billingAddress),
    ...textFields(MandateRequest.properties.fundraiser),
    'name',
    'fullName',
    'phone',
    'address',
    'dateOfBirth',
    'birthDate',
    'dob',
    'secret',
    'clientSecret',
    'client_secret',
    'password',
    'token',
  ].map((key) => key.toLowerCase()),
);

/** Whether a body's text may hold a masked key (a quick look before any parse): `"email":`, `"firstName":`, … */
const MAY_HOLD = new RegExp(`"(?:${[...MASKED_KEYS].join('|')})"\\s*:`, 'i');

/** `value` with every masked key's value replaced, at any depth; the input is not changed. */
function masked(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(masked);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value as Record<string, unknown>))
    out[key] =
      MASKED_KEYS.has(key.toLowerCase()) && inner !== null && typeof inner !== 'boolean' ? MASKED : masked(inner);
  return out;
}

/** `text` cut to `max` characters, marked when cut. */
function capped(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}…(cut)`;
}

/** A parsed request body as the log keeps it: masked, as JSON, capped. */
export function maskedBody(body: unknown, max: number): string | null {
  if (body === undefined || body === null) return null;
  return capped(JSON.stringify(masked(body)) ?? '', max);
}

/**
 * A response payload as sent, as the log keeps it. Most answers name no person: they are kept as sent without a
 * parse; the others are parsed, masked and written again. A payload that is not JSON is not kept.
 */
export function maskedPayload(payload: string | null, max: number): string | null {
  if (!payload) return null;
  if (!MAY_HOLD.test(payload)) return capped(payload, max);
  try {
    return maskedBody(JSON.parse(payload), max);
  } catch {
    return null;
  }
}
