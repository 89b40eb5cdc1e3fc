/**
 * @fundraiser/partner-client: a typed client of the Fundraiser partner API, generated from its OpenAPI document.
 *
 *   const api = new PartnerClient({ baseUrl: 'https://…/v1', clientId, clientSecret });
 *   const { data } = await api.validateFundraiser({ channel: 'Storefront App', id: '10000001' });
 */
export {
  PartnerClient,
  type BodyOf,
  type Channel,
  type DebitRequest,
  type DonationRequest,
  type Environment,
  type MandateRequest,
  type PartnerClientOptions,
  type QueryOf,
  type RecurringDonationRequest,
  type RemittancesRequest,
  type ResultOf,
} from './client.js';
export { PartnerApiError, PartnerNetworkError, PartnerTimeoutError, type ErrorEnvelope } from './errors.js';
export { DEFAULT_RETRY, type ApiResult, type CallOptions, type RetryOptions } from './transport.js';
export type { components, paths } from './schema.js';
export { verifyWebhook, WebhookVerificationError, type VerifyWebhookOptions } from './webhooks.js';
