import { API_VERSION } from '../version.js';

/** The success envelope of section 2.1. */
export function successEnvelope<T>(correlationId: string, method: string, items: T) {
  return { apiVersion: API_VERSION, correlationId, method, data: { items } };
}

/**
 * The error envelope of section 2.2, with UTC timestamps in milliseconds
 * (docs/decisions/0021-timestamps-utc-out-real-instants-in.md).
 */
export function errorEnvelope(correlationId: string, method: string, code: string, message: string, cause?: string) {
  return {
    apiVersion: API_VERSION,
    correlationId,
    method,
    error: { code, timeStamp: new Date().toISOString(), message, ...(cause === undefined ? {} : { cause }) },
  };
}
