import { readFileSync } from 'node:fs';
import cookie from '@fastify/cookie';
import formbody from '@fastify/formbody';
import multipart from '@fastify/multipart';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { App } from '../http/route-context.js';
import { registerGuard } from './guard.js';
import { accountsPages } from './pages/accounts.js';
import { acquittalsPages } from './pages/acquittals.js';
import { auditPage } from './pages/audit.js';
import { bankDecisionPages } from './pages/bank-decisions.js';
import { bankPages } from './pages/bank.js';
import { clubBankDetailsPages } from './pages/club-bank-details.js';
import { clubGrantsPage } from './pages/club-grants.js';
import { credentialsPages } from './pages/credentials.js';
import { dashboardPage } from './pages/dashboard.js';
import { debitsPages } from './pages/debits.js';
import { donationsPages } from './pages/donations.js';
import { consoleErrorHandler, errorPage } from './pages/error-page.js';
import { grantBankChangesPages } from './pages/grant-bank-changes.js';
import { grantRoundsPages } from './pages/grant-rounds.js';
import { loginPages } from './pages/login.js';
import { mailOutboxPage } from './pages/mail-outbox.js';
import { privacyPages } from './pages/privacy.js';
import { owedBackPages } from './pages/owed-back.js';
import { partnerContactsPages } from './pages/partner-contacts.js';
import { partnerPortalUsersPages } from './pages/partner-portal-users.js';
import { partnersPages } from './pages/partners.js';
import { receiptPages } from './pages/receipt.js';
import { receiptsPages } from './pages/receipts.js';
import { recurringPages } from './pages/recurring.js';
import { remittancesPages } from './pages/remittances.js';
import { webhooksPages } from './pages/webhooks.js';
import type { ConsoleDeps, ConsolePage } from './route-context.js';

const pages: ConsolePage[] = [
  loginPages,
  dashboardPage,
  partnersPages,
  partnerContactsPages,
  partnerPortalUsersPages,
  credentialsPages,
  accountsPages,
  donationsPages,
  recurringPages,
  debitsPages,
  remittancesPages,
  bankPages,
  bankDecisionPages,
  owedBackPages,
  grantRoundsPages,
  clubGrantsPage,
  acquittalsPages,
  receiptsPages,
  receiptPages,
  clubBankDetailsPages,
  grantBankChangesPages,
  mailOutboxPage,
  privacyPages,
  webhooksPages,
  auditPage,
];

/**
 * The operator console, mounted at /console in its own encapsulated scope: its body parsers (forms, file uploads),
 * cookies, guard and HTML error pages apply to it alone, so the partner API still accepts only JSON and answers
 * with its envelope. Its routes are kept out of the OpenAPI document, which describes the partner API.
 */
export async function consolePlugin(app: App, deps: ConsoleDeps) {
  app.addHook('onRoute', (route) => {
    // The API's checks (correlation id, credentials, quota) do not apply to the console; its guard does.
    route.config = { ...route.config, public: true };
    route.schema = { ...route.schema, hide: true };
  });
  await app.register(cookie);
  await app.register(formbody, { bodyLimit: 64 * 1024 });
  await app.register(multipart, {
    attachFieldsToBody: true,
    limits: { fileSize: deps.config.BODY_LIMIT_BYTES, fieldSize: deps.config.BODY_LIMIT_BYTES, files: 1, fields: 10 },
  });
  registerGuard(app, deps);
  app.setErrorHandler(consoleErrorHandler);
  registerStatic(app);
  for (const register of pages) register(app, deps);
  registerNotFound(app);
}

/**
 * Every other address under /console is a route of its own rather than Fastify's not-found handler: a route of this
 * scope is marked public to the partner API's hooks (onRoute above), so a browser, which sends no X-Correlation-ID,
 * gets the console's 404 page (signed in or not) instead of the API's refusal turned into a 500.
 */
function registerNotFound(app: App) {
  const notFound = (request: FastifyRequest, reply: FastifyReply) =>
    errorPage(request, reply, 404, 'There is no such page in the console.');
  app.all('/*', { config: { consolePublic: true } }, notFound);
  app.setNotFoundHandler(notFound);
}

/** The stylesheet and the script: two small files, read once, served with a short cache. */
function registerStatic(app: App) {
  const files: Record<string, string> = { 'console.css': 'text/css', 'console.js': 'text/javascript' };
  for (const [name, type] of Object.entries(files)) {
    const body = readFileSync(new URL(`./static/${name}`, import.meta.url), 'utf8');
    app.get(`/static/${name}`, { config: { consolePublic: true } }, async (_request, reply) =>
      reply.type(`${type}; charset=utf-8`).header('cache-control', 'public, max-age=300').send(body),
    );
  }
}
