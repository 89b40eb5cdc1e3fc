import { randomUUID } from 'node:crypto';
import http from 'node:http';

/** One request's fate, as the soak counts it. */
export interface Outcome {
  kind: string;
  status: number;
  ms: number;
  /**
   * 5xx, a connection error, a timeout, or an answer outside the envelope; `backlog` is the 503 of a batch refused
   * while reconciliation is behind (docs/decisions/0081-remittance-backlog-refused-at-the-door.md), named apart.
   */
  error: 'status' | 'backlog' | 'connection' | 'timeout' | 'envelope' | null;
  body: unknown;
}

export interface Call {
  kind: string;
  method: 'GET' | 'POST';
  path: string;
  body?: unknown;
}

const TIMEOUT_MS = 10_000;

/** Keep-alive connections to the service, as a partner's HTTP client would hold them. */
export function createClient(origin: string, credentials: { clientId: string; clientSecret: string }) {
  // Below the service's MAX_CONNECTIONS_PER_ADDRESS (256): the background work's requests come from the same
  // address, and the soak measures the service, not its connection cap.
  const agent = new http.Agent({ keepAlive: true, maxSockets: 240 });
  const { hostname, port } = new URL(origin);
  return {
    close: () => agent.destroy(),
    send(call: Call): Promise<Outcome> {
      const started = performance.now();
      const payload = call.body === undefined ? undefined : JSON.stringify(call.body);
      return new Promise((resolve) => {
        let settled = false;
        const done = (status: number, error: Outcome['error'], body: unknown = null) => {
          if (settled) return;
          settled = true;
          resolve({ kind: call.kind, status, ms: performance.now() - started, error, body });
        };
        const request = http.request(
          {
            agent,
            hostname,
            port,
            method: call.method,
            path: call.path,
            headers: {
              'x-correlation-id': randomUUID(),
              client_id: credentials.clientId,
              client_secret: credentials.clientSecret,
              ...(payload ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } : {}),
            },
            timeout: TIMEOUT_MS,
          },
          (response) => {
            const chunks: Buffer[] = [];
            response.on('data', (chunk: Buffer) => chunks.push(chunk));
            response.on('error', () => done(response.statusCode ?? 0, 'connection'));
            response.on('end', () => {
              const status = response.statusCode ?? 0;
              const body = parse(Buffer.concat(chunks).toString('utf8'));
              if (status >= 500) return done(status, refusedForBacklog(body) ? 'backlog' : 'status', body);
              done(status, inEnvelope(call.kind, body, status) ? null : 'envelope', body);
            });
          },
        );
        request.on('timeout', () => {
          request.destroy();
          done(0, 'timeout');
        });
        request.on('error', () => done(0, 'connection'));
        request.end(payload);
      });
    },
  };
}

const refusedForBacklog = (body: unknown) =>
  (body as { error?: { code?: unknown } } | undefined)?.error?.code === 'FUNDRAISER:REMITTANCE_BACKLOG';

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * The contract's envelopes: apiVersion, correlationId, method, then data (2xx) or error with a code. GET /ping's
 * success is the contract's bare `{"status":"Ok"}` (section 4.2), not an envelope.
 */
function inEnvelope(kind: string, body: unknown, status: number): boolean {
  if (!body || typeof body !== 'object') return false;
  const b = body as Record<string, unknown>;
  if (kind === 'ping' && status === 200) return b.status === 'Ok';
  if (typeof b.apiVersion !== 'string' || typeof b.correlationId !== 'string' || typeof b.method !== 'string')
    return false;
  if (status < 300) return typeof b.data === 'object' && b.data !== null;
  const error = b.error as Record<string, unknown> | undefined;
  return typeof error?.code === 'string' && error.code !== '';
}
