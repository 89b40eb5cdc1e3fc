import type { Kysely } from 'kysely';
import type { Environment } from '../../config/index.js';
import { issueCredential, type IssuedCredential } from '../issue-credential.js';
import type { DB } from '../../infrastructure/db/schema.js';
import { takeStartupLock } from '../../infrastructure/db/startup-lock.js';
import { upsertAccounts } from '../../infrastructure/repositories/account-writes.js';
import type { AccountInput } from '../../infrastructure/repositories/accounts.js';
import { countPartners, insertPartner } from '../../infrastructure/repositories/partners.js';

const STOREFRONT = 'Storefront App';
const REGISTRATION = 'Registration Integration';

const product = (channel: string, status = 'Activated', extra: Partial<AccountInput['products'][number]> = {}) => ({
  channel,
  status,
  description: channel === STOREFRONT ? 'Round up your order for the club' : 'Add a donation to your registration',
  logo: 'https://example.org/assets/logo.png',
  coverImage: 'https://example.org/assets/cover.jpg',
  donationAmountsCents: [500, 1000, 2000, 5000],
  story: 'Every dollar keeps junior sport affordable in our community.',
  campaigns: {},
  ...extra,
});

/** Fundraisers covering the cases of the spec: each id form, one channel, both, neither, not activated. */
const DEMO_ACCOUNTS: AccountInput[] = [
  {
    memberNumber: '10000001',
    crmId: '0015g00000Demo1AAA',
    name: 'Riverside Junior Football Club',
    abn: '51824753556',
    products: [
      product(STOREFRONT, 'Activated', { productEnrollmentId: 'PE-10000001-SF' }),
      product(REGISTRATION, 'Activated', { productEnrollmentId: 'PE-10000001-RI' }),
    ],
  },
  {
    memberNumber: '10000002',
    crmId: '0015g00000Demo2BAQ',
    name: 'Harbour City Netball',
    abn: null,
    products: [product(STOREFRONT, 'Activated', { productEnrollmentId: 'PE-10000002-SF' })],
  },
  {
    memberNumber: '10000003',
    crmId: null,
    name: 'Outback Cricket Association',
    abn: null,
    products: [product(REGISTRATION, 'Activated', { productEnrollmentId: 'PE-10000003-RI' })],
  },
  {
    memberNumber: '10000004',
    crmId: null,
    name: 'Northside Swimming Club',
    abn: null,
    products: [product(STOREFRONT, 'Pending Activation', { enrollmentStatus: 'Enrollment Pending' })],
  },
  { memberNumber: '10000005', crmId: null, name: 'Coastal Rowing Club', abn: null, products: [] },
];

/** The sandbox's fundraisers a partner can test with (the portal's Sandbox page): each id and its channels' state. */
export const sandboxTestAccounts = () =>
  DEMO_ACCOUNTS.map((a) => ({
    memberNumber: a.memberNumber,
    crmId: a.crmId,
    name: a.name,
    products: a.products.map((p) => `${p.channel}: ${p.status}`),
  }));

export interface DemoPartnerCredential extends IssuedCredential {
  partner: string;
  channel: string;
}

/**
 * Loads sandbox demo data into an empty database (no partner yet): the accounts above and one partner per
 * channel with credentials for this environment. Returns the credentials (to print once), or null when the
 * database already had partners.
 */
export async function seedDemoData(
  db: Kysely<DB>,
  environment: Environment,
  quota: { limit: number; windowSeconds: number },
): Promise<DemoPartnerCredential[] | null> {
  return db.transaction().execute(async (trx) => {
    // Instances starting together on an empty database: the first loads the data, the others then find partners.
    await takeStartupLock(trx);
    if ((await countPartners(trx)) > 0) return null;
    await upsertAccounts(trx, DEMO_ACCOUNTS);
    const issued: DemoPartnerCredential[] = [];
    for (const [partner, channel] of [
      ['Demo Storefront Partner', STOREFRONT],
      ['Demo Registration Partner', REGISTRATION],
    ] as const) {
      const row = await insertPartner(trx, {
        name: partner,
        channels: [channel],
        quotaLimit: quota.limit,
        quotaWindowSeconds: quota.windowSeconds,
      });
      issued.push({ partner, channel, ...(await issueCredential(trx, row.id, environment)) });
    }
    return issued;
  });
}
