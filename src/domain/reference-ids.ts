import { randomBytes } from 'node:crypto';

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** Random Crockford base-32 (no I, L, O, U): easy to read aloud to a support desk. */
export function randomBase32(length: number): string {
  const bytes = randomBytes(length);
  let out = '';
  // 256 is a multiple of 32, so taking each byte modulo 32 keeps every character equally likely.
  for (let i = 0; i < length; i++) out += CROCKFORD[bytes[i]! % 32];
  return out;
}

/** donationReferenceId: issued by the service, the key partners use in remittances. */
export const newDonationReferenceId = () => `DON-${randomBase32(16)}`;
