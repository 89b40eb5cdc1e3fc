import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance, RouteOptions } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../../config/index.js';
import { API_VERSION, applicationInfo } from '../../version.js';
import type { ApiDeprecation } from '../../infrastructure/db/schema-partner-contacts.js';
import { openApiPath } from './deprecation-headers.js';
import { openApiWebhooks } from './openapi-webhooks.js';

const DESCRIPTION = `${applicationInfo.description}

Every request carries \`X-Correlation-ID\` (a fresh UUID, echoed as \`correlationId\` and as a response header) and
the partner's \`client_id\` and \`client_secret\` headers; \`Authorization: Basic\` may be sent beside them and must
then name the same pair. Checks run in this order and the first failure answers: correlation id, credentials,
channel permission, quota, validation, business rules. Every error uses the error envelope with a non-empty
\`error.code\`.

**Retrying**: 429, 500 and 503 are retryable: honour \`Retry-After\`, otherwise back off exponentially with jitter.
Send an \`Idempotency-Key\` with every POST: a retry with the same key replays the first response.

**Channels** (\`channel\`, \`source.channel\`) are reference data: \`Storefront App\` and \`Registration Integration\`
are the contract's values and every deployment's defaults; operators may add others, so the document lists them
as examples, not as an enum. A partner may only use the channels it was issued.

**Text**: identifiers and text fields, headers and query parameters (those marked \`x-checks: no-control-characters\`)
refuse control characters (U+0000–U+001F, U+007F–U+009F: line breaks and tabs among them) with 400
FUNDRAISER:VALIDATION naming the field. Free-form \`sourceMetadata\` is stored verbatim.`;

const TAGS = [
  { name: 'fundraisers', description: 'Check a fundraiser’s enrolment with your channel before anything else.' },
  { name: 'donations', description: 'Record donations collected on your platform.' },
  { name: 'mandates', description: 'Direct-debit mandates for recurring donations.' },
  {
    name: 'recurring donations',
    description:
      'Extension: debits of succeeded mandates, on a schedule or one at a time; each collected debit is a donation ' +
      '(docs/recurring.md).',
  },
  { name: 'remittances', description: 'Bank-settled remittance batches and their reconciliation.' },
  { name: 'accounts', description: 'Fundraiser account details and the product of your channel.' },
  { name: 'operational', description: 'Liveness, health and version. Secured like the rest, not enveloped.' },
  {
    name: 'credentials',
    description: 'Extension: rotate your own credential, with the contract’s 14-day overlap (section 5.6).',
  },
  { name: 'webhooks', description: 'Signed events pushed to your endpoints, and the event log to catch up from.' },
  {
    name: 'sandbox',
    description: 'Outside production only: walk a mandate through the payment simulator, and move your sandbox clock.',
  },
  {
    name: 'operations',
    description:
      'For the platform, not partners: probes, metrics and Stripe’s webhook, outside the base path (docs/deploy.md).',
  },
];

/** Routes announced as deprecated (`GET /path`), with what partners are told of each. */
function deprecatedRoutes(deprecations: ApiDeprecation[]): Map<string, string> {
  const byRoute = new Map<string, string>();
  for (const d of deprecations)
    for (const route of d.routes)
      byRoute.set(route, `Deprecated: stops on ${new Date(d.sunset_at).toISOString().slice(0, 10)}. ${d.description}`);
  return byRoute;
}

/** Marks a deprecated route `deprecated` in the document, and says when it stops and why. */
function markDeprecated(route: RouteOptions, basePath: string, sunsets: Map<string, string>) {
  if (!route.schema || !route.url.startsWith(basePath)) return;
  const path = openApiPath(route.url.slice(basePath.length));
  for (const method of Array.isArray(route.method) ? route.method : [route.method]) {
    const note = sunsets.get(`${method} ${path}`);
    if (!note) continue;
    const schema = route.schema as Record<string, unknown>;
    schema.deprecated = true;
    schema.description = `${note}\n\n${(schema.description as string | undefined) ?? ''}`;
  }
}

/** The contract's own operations (docs/contract.md, section 4); every other partner route is an extension. */
const CONTRACT_OPERATIONS = new Set([
  'GET /health',
  'GET /ping',
  'GET /info',
  'GET /fundraisers',
  'POST /donations',
  'GET /mandates',
  'POST /mandates',
  'POST /remittances',
  'GET /accounts/:id',
]);

const EXTENSION_NOTE =
  'Not in the contract: an extension in its style (envelope, X-Correlation-ID, credentials, quota, errors).';

/** A partner route under the base path that the contract does not have (`x-extension` in the document). */
function isExtension(method: string | string[], url: string, basePath: string): boolean {
  if (!url.startsWith(`${basePath}/`) || url.startsWith(`${basePath}/docs`) || url === `${basePath}/openapi.json`)
    return false;
  const path = url.slice(basePath.length);
  return (Array.isArray(method) ? method : [method]).some(
    (m) => m !== 'HEAD' && !CONTRACT_OPERATIONS.has(`${m} ${path}`),
  );
}

/**
 * The one inline style Swagger UI's bundle inserts (a fixed <style> element), allowed on the docs page by its hash
 * so that the page's policy needs no 'unsafe-inline'. Another swagger-ui version may insert another: the browser
 * test (test/console/csp.browser.test.ts) then reports the violation with the new hash to put here.
 */
const SWAGGER_UI_STYLE_HASHES = ['sha256-RL3ie0nH+Lzz2YNqQN83mnU0J1ot4QL7b99vMdIX99w='];

/**
 * The OpenAPI 3.1 document, generated from the same TypeBox schemas that validate requests and serialise
 * responses, so it cannot drift from what the service does; and the reference page that renders it at
 * `{base}/docs`, with Swagger UI's assets served by us (no CDN, no credentials needed).
 */
export const openApiPlugin = fp<{ config: Config; deprecated?: ApiDeprecation[] }>(
  async (app: FastifyInstance, { config, deprecated = [] }) => {
    const sunsets = deprecatedRoutes(deprecated);
    // Public routes answer without credentials: the document says so instead of showing the global requirement.
    app.addHook('onRoute', (route) => {
      markDeprecated(route, config.BASE_PATH, sunsets);
      if (route.config?.public && route.schema && !route.schema.hide) route.schema.security = [];
      if (route.schema && !route.schema.hide && isExtension(route.method, route.url, config.BASE_PATH))
        (route.schema as Record<string, unknown>)['x-extension'] = EXTENSION_NOTE;
    });
    await app.register(swagger, {
      openapi: {
        openapi: '3.1.0',
        info: {
          title: 'Fundraiser External Source Integration API',
          version: API_VERSION,
          description: DESCRIPTION,
          contact: { name: 'Partner integrations' },
          license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
        },
        servers: servers(config),
        tags: TAGS,
        components: {
          securitySchemes: {
            clientId: { type: 'apiKey', in: 'header', name: 'client_id', description: 'Issued per environment.' },
            clientSecret: { type: 'apiKey', in: 'header', name: 'client_secret', description: 'Confidential.' },
            basic: {
              type: 'http',
              scheme: 'basic',
              description: 'base64(client_id:client_secret). Optional unless the deployment requires it.',
            },
          },
        },
        webhooks: openApiWebhooks,
        // Alternatives: the two headers, or the two headers and Basic (which REQUIRE_BASIC_AUTH makes the only one).
        security: config.REQUIRE_BASIC_AUTH
          ? [{ clientId: [], clientSecret: [], basic: [] }]
          : [
              { clientId: [], clientSecret: [] },
              { clientId: [], clientSecret: [], basic: [] },
            ],
      },
      refResolver: {
        buildLocalReference: (json, _base, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`),
      },
    });
    await app.register(async (docs) => {
      docs.addHook('onRoute', (route) => {
        route.config = { ...route.config, public: true, pageStyleHashes: SWAGGER_UI_STYLE_HASHES };
      });
      await docs.register(swaggerUi, {
        routePrefix: `${config.BASE_PATH}/docs`,
        // The page's own script is a separate file (no inline script); nothing is fetched from another origin.
        validatorUrl: false,
        uiConfig: { deepLinking: true, docExpansion: 'list', defaultModelsExpandDepth: 0 },
        theme: { title: 'Fundraiser partner API reference' },
      });
    });
  },
  { name: 'openapi' },
);

/**
 * This deployment's base URL first (absolute with PUBLIC_BASE_URL, otherwise relative to where the document is
 * served), then the other environments' of OPENAPI_SERVERS, so a partner sees every `{base_url}` in one place.
 */
export function servers(config: Pick<Config, 'PUBLIC_BASE_URL' | 'BASE_PATH' | 'APP_ENV' | 'OPENAPI_SERVERS'>) {
  const url = `${config.PUBLIC_BASE_URL ?? ''}${config.BASE_PATH}` || '/';
  const others = (config.OPENAPI_SERVERS ?? '')
    .split(',')
    .filter(Boolean)
    .map((pair) => pair.split(/=(.*)/s) as [string, string])
    .filter(([environment]) => environment !== config.APP_ENV)
    .map(([environment, other]) => ({ url: other, description: environment }));
  return [{ url, description: `${config.APP_ENV} (this deployment)` }, ...others];
}
