import type { App } from '../../route-context.js';
import type { OperationsDeps } from './context.js';
import metricsRoute from './metrics.js';
import probesRoutes from './probes.js';
import securityTxtRoute from './security-txt.js';
import stripeWebhookRoute from './stripe-webhook.js';

/** The routes outside BASE_PATH, for the platform rather than partners. */
export async function operationsRoutes(app: App, deps: OperationsDeps) {
  await probesRoutes(app, deps);
  await metricsRoute(app, deps);
  await stripeWebhookRoute(app, deps);
  await securityTxtRoute(app, deps);
}
