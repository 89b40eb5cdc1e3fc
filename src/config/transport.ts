import { Type } from '@sinclair/typebox';

/**
 * Settings of the HTTP transport: the limits and timeouts that answer hostile or stalled clients before routing,
 * and the connection caps (docs/decisions/0035-transport-limits-answered-in-the-envelope.md).
 */
export const TransportSettings = {
  BODY_DRAIN_LIMIT_BYTES: Type.Integer({
    minimum: 0,
    default: 32 * 1024 * 1024,
    description: 'How much of an oversized body is read (and discarded) so that the client receives the 413.',
  }),
  MAX_URL_LENGTH: Type.Integer({ minimum: 256, default: 8192, description: 'Longer URLs are answered 414.' }),
  MAX_HEADER_BYTES: Type.Integer({
    minimum: 4096,
    default: 16384,
    description: 'Request line and headers together; larger is 431 (414 when the request line alone is too long).',
  }),
  HEADERS_TIMEOUT_MS: Type.Integer({ minimum: 100, default: 10000, description: 'Headers not complete by then: 408.' }),
  REQUEST_TIMEOUT_MS: Type.Integer({ minimum: 100, default: 30000, description: 'Request not complete by then: 408.' }),
  KEEP_ALIVE_TIMEOUT_MS: Type.Integer({ minimum: 100, default: 72000, description: 'Idle keep-alive connections.' }),
  CONNECTION_IDLE_TIMEOUT_MS: Type.Integer({
    minimum: 100,
    default: 60000,
    description: 'A socket with no activity for this long is closed.',
  }),
  MAX_REQUESTS_PER_SOCKET: Type.Integer({ minimum: 0, default: 10000, description: '0: unlimited.' }),
  MAX_CONNECTIONS: Type.Integer({ minimum: 1, default: 10000, description: 'Open connections, all clients.' }),
  MAX_CONNECTIONS_PER_ADDRESS: Type.Integer({
    minimum: 1,
    default: 256,
    description: 'Open connections from one client address; more are answered 429 and closed.',
  }),
};
