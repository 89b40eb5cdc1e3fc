// The compiled build, run as an operator would on deployment day: `start:prod`'s command
// in production with PAYMENT_PROVIDER=stripe against a local Stripe stand-in, migrations run first by the compiled
// CLI, a partner onboarded with it, a mandate created and confirmed through a signed webhook. Loopback only.
// Run with `npm run smoke:dist` (builds first); prints "N passed, N failed" and exits non-zero on any failure.
import { execFile, spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { productionLaunch } from './production-launch.js';
import { signedEvent, StripeStandIn } from '../test/helpers/stripe-stand-in.js';

const run = promisify(execFile);
const results: { name: string; ok: boolean; detail?: string }[] = [];
function check(name: string, ok: boolean, detail?: unknown) {
  results.push({ name, ok, detail: ok ? undefined : JSON.stringify(detail) });
  process.stdout.write(`${ok ? 'ok  ' : 'FAIL'} ${name}${ok ? '' : `: ${JSON.stringify(detail)}`}\n`);
}

const freePort = () =>
  new Promise<number>((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

// SMOKE_APP_DIR: a folder laid out as the container image's last stage (scripts/smoke-dist.sh makes it: dist/, bin/,
// production dependencies only), so the smoke proves the image's contents, not the checkout's.
const appDir = process.env.SMOKE_APP_DIR ?? process.cwd();
const dataDir = mkdtempSync(join(tmpdir(), 'smoke-dist-'));
const stripe = await new StripeStandIn().start();
const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const webhookSecret = `whsec_${randomBytes(16).toString('hex')}`;
const metricsToken = randomBytes(24).toString('hex');
const env = {
  ...process.env,
  APP_ENV: 'production',
  PAYMENT_PROVIDER: 'stripe',
  STRIPE_API_BASE: stripe.url,
  STRIPE_SECRET_KEY: `sk_test_${randomBytes(16).toString('hex')}`,
  STRIPE_WEBHOOK_SECRET: webhookSecret,
  WEBHOOK_SECRET_KEY: randomBytes(32).toString('hex'),
  METRICS_TOKEN: metricsToken,
  SECURITY_CONTACT: 'mailto:security@foundation.example',
  SECURITY_TXT_EXPIRES: new Date(Date.now() + 180 * 24 * 3600 * 1000).toISOString(),
  // Production issues tax receipts only under the foundation's real identity (docs/receipts.md).
  FOUNDATION_LEGAL_NAME: 'Smoke Sports Foundation Ltd',
  FOUNDATION_ABN: '53 004 085 616',
  FOUNDATION_DGR_STATEMENT: 'The foundation is endorsed as a deductible gift recipient.',
  // Production pays grants only from the foundation's own account (docs/grants.md).
  GRANT_ABA_USER_NAME: 'SMOKE SPORTS FOUNDATION',
  GRANT_ABA_APCA_USER_ID: '301500',
  GRANT_ABA_BANK: 'CBA',
  GRANT_ABA_BSB: '062-000',
  GRANT_ABA_ACCOUNT: '10203040',
  DATA_DIR: dataDir,
  DATABASE_URL: '',
  HOST: '127.0.0.1',
  PORT: String(port),
  MIGRATE_ON_START: 'false',
  LOG_LEVEL: 'warn',
  FUNDRAISER_ADMIN_COMPILED: '1',
};
const admin = async (...args: string[]) =>
  (await run('node', ['bin/fundraiser-admin.js', ...args, '--json'], { env, cwd: appDir })).stdout;

let server: ReturnType<typeof spawn> | undefined;
try {
  const migrated = JSON.parse(await admin('migrate')) as { applied: string[] };
  check('compiled CLI applies the migrations', migrated.applied.length > 0, migrated);
  await admin('partners', 'create', 'Smoke Partner', '--channel', 'Storefront App');
  const issued = JSON.parse(await admin('credentials', 'issue', 'Smoke Partner')) as Record<string, string | undefined>;
  const credential = {
    clientId: issued.clientId ?? issued.client_id ?? '',
    clientSecret: issued.clientSecret ?? issued.client_secret ?? '',
  };
  check(
    'compiled CLI issues credentials',
    Boolean(credential.clientId && credential.clientSecret),
    Object.keys(issued),
  );
  const accounts = join(dataDir, 'accounts.csv');
  writeFileSync(accounts, 'memberNumber,name,channel,status\n30000001,Smoke Test Club,Storefront App,Activated\n');
  await admin('accounts', 'import', accounts);

  const launch = productionLaunch(appDir);
  server = spawn('node', [...launch.nodeArgs, launch.script], {
    env: { ...env, ...launch.env },
    cwd: appDir,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const deadline = Date.now() + 60_000;
  for (;;) {
    const up = await fetch(`${base}/livez`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) break;
    if (Date.now() > deadline || server.exitCode !== null) throw new Error(`node ${launch.script} did not start`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  check('GET /livez answers 200', true);
  const ready = await fetch(`${base}/readyz`);
  check('GET /readyz answers 200 UP', ready.status === 200, (await ready.json()) as unknown);

  const headers = (extra: Record<string, string> = {}) => ({
    'x-correlation-id': randomUUID(),
    client_id: credential.clientId,
    client_secret: credential.clientSecret,
    ...extra,
  });
  const ping = await fetch(`${base}/v1/ping`, { headers: headers() });
  check('GET /v1/ping with the new partner answers 200', ping.status === 200, ping.status);

  const created = await fetch(`${base}/v1/mandates`, {
    method: 'POST',
    headers: headers({ 'content-type': 'application/json', 'idempotency-key': randomUUID() }),
    body: JSON.stringify({
      source: { channel: 'Storefront App', fundraiserId: '30000001' },
      fundraiser: { firstName: 'Sam', lastName: 'Coach', email: 'sam.coach@example.com' },
      paymentMethod: 'Direct Debit',
    }),
  });
  const items = ((await created.json()) as { data?: { items?: { mandateId: string; clientSecret: string } } }).data
    ?.items;
  const intent = items ? stripe.setupIntents.get(items.mandateId) : undefined;
  check(
    'POST /v1/mandates creates a BECS SetupIntent at Stripe and returns its client secret',
    created.status === 200 &&
      intent?.client_secret === items?.clientSecret &&
      JSON.stringify(intent?.allowed_payment_method_types) === '["au_becs_debit"]',
    { status: created.status, intent },
  );

  const { intent: succeeded } = stripe.succeed(items!.mandateId, 1_790_000_000);
  const post = (signed: ReturnType<typeof signedEvent>, body = signed.payload) =>
    fetch(`${base}/webhooks/stripe`, { method: 'POST', headers: signed.headers, body });
  const forged = signedEvent(webhookSecret, 'setup_intent.succeeded', succeeded, { signWith: 'whsec_forged' });
  const refused = await post(forged);
  const read = async () =>
    (
      (await (await fetch(`${base}/v1/mandates?id=${items!.mandateId}`, { headers: headers() })).json()) as {
        data: { items: { status: string; mandate: Record<string, string> } };
      }
    ).data.items;
  check(
    'a badly signed event gets 400 and changes nothing',
    refused.status === 400 && (await read()).status === 'requires_payment_method',
    refused.status,
  );
  const accepted = await post(signedEvent(webhookSecret, 'setup_intent.succeeded', succeeded));
  const shown = await read();
  check(
    'a signed setup_intent.succeeded makes GET /v1/mandates show succeeded with acceptedAt, paymentMethod, url',
    accepted.status === 200 &&
      shown.status === 'succeeded' &&
      shown.mandate.acceptedAt === new Date(1_790_000_000_000).toISOString() &&
      shown.mandate.paymentMethod === 'au_becs_debit' &&
      Boolean(shown.mandate.url),
    shown,
  );

  const unauthorised = await fetch(`${base}/metrics`);
  const metrics = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${metricsToken}` } });
  const text = await metrics.text();
  check(
    'GET /metrics needs the bearer token and then answers Prometheus text',
    unauthorised.status === 401 && metrics.status === 200 && text.includes('http_requests_total'),
    { unauthorised: unauthorised.status, metrics: metrics.status },
  );

  const securityTxt = await fetch(`${base}/.well-known/security.txt`);
  const securityText = await securityTxt.text();
  check(
    'GET /.well-known/security.txt names the contact and its expiry',
    securityTxt.status === 200 &&
      securityText.includes('Contact: mailto:security@foundation.example') &&
      securityText.includes(`Expires: ${env.SECURITY_TXT_EXPIRES}`),
    securityTxt.status,
  );
} catch (err) {
  check('smoke run', false, err instanceof Error ? err.message : String(err));
} finally {
  server?.kill('SIGTERM');
  await new Promise((resolve) => (server && server.exitCode === null ? server.once('exit', resolve) : resolve(null)));
  await stripe.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
const failed = results.filter((r) => !r.ok).length;
process.stdout.write(`\nsmoke: ${results.length - failed} passed, ${failed} failed\n`);
process.exit(failed === 0 ? 0 : 1);
