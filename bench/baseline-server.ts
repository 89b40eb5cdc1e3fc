/**
 * The baselines the service is measured against: a bare node:http server, no framework, no validation, no
 * authentication. GET /ping and GET /fundraisers answer the JSON the service answered (correlation id echoed);
 * POST /donations parses the body and does one INSERT of the same row into the same database with the same pool
 * size. Run by the bench as a child process (its own event loop, like the service), never in production.
 *
 * Environment: BASELINE_DATABASE_URL or BASELINE_DATA_DIR (neither: no database, GET routes only),
 * BASELINE_POOL_MAX, BASELINE_PING_BODY and BASELINE_FUNDRAISERS_BODY (JSON captured from the service),
 * BASELINE_HEADERS (the headers of the service's answer, as [name, value] pairs: protective, quota and content
 * headers). Every answer carries those same headers, so that both servers write the same bytes and the ratio
 * measures what the service does, not how many headers the security baseline (docs/security.md) asks for.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';

interface Queryable {
  query(text: string, params?: unknown[]): Promise<{ rows: Record<string, unknown>[] }>;
  close(): Promise<void>;
}

const INSERT_DONATION = `
  insert into donations (reference_id, partner_id, environment, is_live, channel, account_id, fundraiser_id,
    fundraiser_account_name, product_enrollment_id, donor_email, donor_verified_email, donor_first_name,
    donor_last_name, donor_mobile, donor_business_name, address_street, address_city, address_state,
    address_postal_code, address_country, transaction_id, transaction_date_raw, transaction_at, amount_cents,
    source_metadata, request_hash, correlation_id)
  values ($1, $2, 'sit', false, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20,
    $21, $22, $23, $24, $25)
  on conflict (partner_id, environment, channel, transaction_id) where transaction_id is not null do nothing
  returning reference_id`;

async function openDatabase(): Promise<Queryable | null> {
  const url = process.env.BASELINE_DATABASE_URL;
  if (url) {
    const pool = new pg.Pool({ connectionString: url, max: Number(process.env.BASELINE_POOL_MAX ?? 10) });
    return { query: (text, params) => pool.query(text, params), close: () => pool.end() };
  }
  if (!process.env.BASELINE_DATA_DIR) return null;
  const pglite = await PGlite.create(process.env.BASELINE_DATA_DIR);
  return { query: (text, params) => pglite.query(text, params), close: () => pglite.close() };
}

async function main() {
  const db = await openDatabase();
  const version = db ? String((await db.query('select version() as v')).rows[0]?.v ?? 'unknown') : 'none';
  const partner = db && (await db.query(`select id from partners where name = 'Demo Storefront Partner'`)).rows[0]?.id;
  const account = db && (await db.query(`select id from accounts where member_number = '10000001'`)).rows[0]?.id;
  if (db && (!partner || !account)) throw new Error('the service has not seeded its demo data into this database');
  const pingBody = (JSON.parse(process.env.BASELINE_PING_BODY ?? '{}') ?? {}) as Record<string, unknown>;
  const fundraisersBody = (JSON.parse(process.env.BASELINE_FUNDRAISERS_BODY ?? '{}') ?? {}) as Record<string, unknown>;

  let failureLogged = false;
  const server = createServer((req, res) => {
    const correlationId = String(req.headers['x-correlation-id'] ?? '');
    const path = req.url?.split('?')[0] ?? '';
    if (req.method === 'GET' && path.endsWith('/ping'))
      return reply(res, correlationId, withCorrelation(pingBody, correlationId));
    if (req.method === 'GET' && path.endsWith('/fundraisers'))
      return reply(res, correlationId, withCorrelation(fundraisersBody, correlationId));
    if (req.method === 'POST' && path.endsWith('/donations') && db) {
      return void insertDonation(db, req, partner, account, correlationId)
        .then((referenceId) =>
          reply(res, correlationId, {
            apiVersion: '1.0.0',
            correlationId,
            method: '/donations',
            data: { items: { donationReferenceId: referenceId } },
          }),
        )
        .catch((err: Error) => {
          if (!failureLogged) process.stderr.write(`baseline: first failed insert: ${err.message}\n`);
          failureLogged = true;
          reply(res, correlationId, { error: err.message }, 500);
        });
    }
    reply(res, correlationId, { error: 'not found' }, 404);
  });
  server.keepAliveTimeout = 60_000;
  server.listen(0, '127.0.0.1', () => {
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    process.stdout.write(`baseline listening on http://127.0.0.1:${port}; database: ${version}\n`);
  });
  process.on('SIGTERM', () => {
    server.close();
    server.closeAllConnections();
    void (db ? db.close() : Promise.resolve()).finally(() => process.exit(0));
  });
}

async function insertDonation(
  db: Queryable,
  req: IncomingMessage,
  partnerId: unknown,
  accountId: unknown,
  correlationId: string,
): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const raw = Buffer.concat(chunks);
  const body = JSON.parse(raw.toString('utf8'));
  const { source, donor, transaction } = body;
  const address = donor.billingAddress ?? {};
  const { rows } = await db.query(INSERT_DONATION, [
    `DON-${randomBytes(10).toString('hex').toUpperCase()}`,
    partnerId,
    source.channel,
    accountId,
    source.fundraiserId,
    source.fundraiserAccountName ?? null,
    source.productEnrollmentId ?? null,
    donor.email,
    donor.verifiedEmail ?? null,
    donor.firstName,
    donor.lastName,
    donor.mobile ?? null,
    donor.businessName ?? null,
    address.street ?? null,
    address.city ?? null,
    address.state ?? null,
    address.postalCode,
    address.country ?? null,
    transaction.id,
    transaction.date,
    transaction.date,
    Math.round(Number(transaction.amount) * 100),
    body.sourceMetadata === undefined ? null : JSON.stringify(body.sourceMetadata),
    createHash('sha256').update(raw).digest('hex'),
    correlationId,
  ]);
  return String(rows[0]?.reference_id ?? 'replayed');
}

function withCorrelation(template: Record<string, unknown>, correlationId: string): Record<string, unknown> {
  return 'correlationId' in template ? { ...template, correlationId } : template;
}

const answerHeaders: Record<string, string> = {
  'content-type': 'application/json; charset=utf-8',
  ...Object.fromEntries(JSON.parse(process.env.BASELINE_HEADERS ?? '[]') as [string, string][]),
};

function reply(res: ServerResponse, correlationId: string, body: unknown, status = 200): void {
  const json = JSON.stringify(body);
  res.writeHead(status, {
    ...answerHeaders,
    'content-length': Buffer.byteLength(json),
    'x-correlation-id': correlationId,
  });
  res.end(json);
}

main().catch((err) => {
  process.stderr.write(`baseline failed: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
