import { randomBytes, randomFillSync } from 'node:crypto';

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

// Random bytes are drawn from a pool refilled 4 KB at a time: one entropy call per ~250 ids instead of one each.
const pool = Buffer.alloc(4096);
let poolOffset = pool.length;

function takeRandomBytes(count: number): Buffer {
  if (count > pool.length) return randomBytes(count);
  if (poolOffset + count > pool.length) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  const bytes = pool.subarray(poolOffset, poolOffset + count);
  poolOffset += count;
  return bytes;
}

/** Random Crockford base-32 (no I, L, O, U): easy to read aloud to a support desk. */
export function randomBase32(length: number): string {
  const bytes = takeRandomBytes(length);
  let out = '';
  // 256 is a multiple of 32, so taking each byte modulo 32 keeps every character equally likely.
  for (let i = 0; i < length; i++) out += CROCKFORD[bytes[i]! % 32];
  return out;
}

/** donationReferenceId: issued by the service, the key partners use in remittances. */
export const newDonationReferenceId = () => `DON-${randomBase32(16)}`;
