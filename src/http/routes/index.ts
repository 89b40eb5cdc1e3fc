import type { App, RouteDeps } from '../route-context.js';
import getAccountRoute from './accounts/get-account.js';
import postDonationsRoute from './donations/post-donations.js';
import getDonationRoute from './donations/get-donation.js';
import postReversalRoute from './donations/post-reversal.js';
import getFundraisersRoute from './fundraisers/get-fundraisers.js';
import getMandatesRoute from './mandates/get-mandates.js';
import postMandatesRoute from './mandates/post-mandates.js';
import healthRoute from './status/health.js';
import infoRoute from './status/info.js';
import pingRoute from './status/ping.js';
import getRemittanceRoute from './remittances/get-remittance.js';
import listRemittancesRoute from './remittances/list-remittances.js';
import postRemittancesRoute from './remittances/post-remittances.js';
import confirmMandateRoute from './sandbox/confirm-mandate.js';
import sandboxClockRoutes from './sandbox/sandbox-clock.js';
import getSandboxReceiptsRoute from './sandbox/get-sandbox-receipts.js';
import postMandateDebitRoute from './mandates/post-mandate-debit.js';
import getDebitRoute from './debits/get-debit.js';
import rotateCredentialRoute from './credentials/rotate-credential.js';
import postRecurringDonationRoute from './recurring/post-recurring-donation.js';
import getRecurringDonationRoute from './recurring/get-recurring-donation.js';
import listRecurringDonationsRoute from './recurring/list-recurring-donations.js';
import cancelRecurringDonationRoute from './recurring/cancel-recurring-donation.js';
import mandateConfirmationPage from './sandbox/mandate-confirmation-page.js';
import listEventsRoute from './events/list-events.js';
import deleteWebhookEndpointRoute from './webhooks/delete-webhook-endpoint.js';
import getWebhookEndpointRoute from './webhooks/get-webhook-endpoint.js';
import listWebhookDeliveriesRoute from './webhooks/list-webhook-deliveries.js';
import listWebhookEndpointsRoute from './webhooks/list-webhook-endpoints.js';
import postWebhookEndpointRoute from './webhooks/post-webhook-endpoint.js';
import rotateWebhookSecretRoute from './webhooks/rotate-webhook-secret.js';
import testWebhookEndpointRoute from './webhooks/test-webhook-endpoint.js';

/** Every route of the API, registered under BASE_PATH. */
export const routes: ((app: App, deps: RouteDeps) => Promise<void>)[] = [
  healthRoute,
  pingRoute,
  infoRoute,
  getFundraisersRoute,
  postDonationsRoute,
  getDonationRoute,
  postReversalRoute,
  getMandatesRoute,
  postMandatesRoute,
  postRemittancesRoute,
  getRemittanceRoute,
  listRemittancesRoute,
  getAccountRoute,
  confirmMandateRoute,
  mandateConfirmationPage,
  postWebhookEndpointRoute,
  listWebhookEndpointsRoute,
  getWebhookEndpointRoute,
  deleteWebhookEndpointRoute,
  rotateWebhookSecretRoute,
  testWebhookEndpointRoute,
  listWebhookDeliveriesRoute,
  listEventsRoute,
  postRecurringDonationRoute,
  listRecurringDonationsRoute,
  getRecurringDonationRoute,
  cancelRecurringDonationRoute,
  postMandateDebitRoute,
  getDebitRoute,
  rotateCredentialRoute,
  sandboxClockRoutes,
  getSandboxReceiptsRoute,
];
