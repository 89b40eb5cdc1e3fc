import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { guardedLookup, hostOf, refusedAddress, refusedUrl, type AddressPolicy } from './address-guard.js';

export interface PostResult {
  /** The answer's HTTP status; null when there was no answer (refused, timed out, connection failed). */
  status: number | null;
  latencyMs: number;
  /** The start of the answer's body, for the partner and operators to see why it failed. */
  snippet: string | null;
  error: string | null;
}

const SNIPPET_BYTES = 512;

/**
 * POSTs a JSON body with a hard timeout (connection, answer and body together), connecting only to addresses the
 * policy allows (checked after resolution, at connection time). Redirects are not followed. Never throws.
 */
export async function postJson(
  target: string,
  body: string,
  headers: Record<string, string>,
  options: { timeoutMs: number; policy: AddressPolicy; userAgent: string },
): Promise<PostResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const checked = refusedUrl(target, options.policy);
  if ('reason' in checked) return { status: null, latencyMs: 0, snippet: null, error: `url ${checked.reason}` };
  const { url } = checked;
  // An IP literal is never looked up, so the lookup guard would not see it.
  const literal = isIP(hostOf(url)) ? refusedAddress(hostOf(url), options.policy) : null;
  if (literal) return { status: null, latencyMs: 0, snippet: null, error: literal };
  try {
    const { status, snippet } = await send(url, body, headers, options);
    return { status, latencyMs: elapsed(), snippet, error: null };
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    const error =
      e.name === 'TimeoutError' || e.name === 'AbortError' ? `timed out after ${options.timeoutMs} ms` : e.message;
    return { status: null, latencyMs: elapsed(), snippet: null, error: error.slice(0, 300) };
  }
}

function send(
  url: URL,
  body: string,
  headers: Record<string, string>,
  options: { timeoutMs: number; policy: AddressPolicy; userAgent: string },
): Promise<{ status: number; snippet: string }> {
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const request = client.request(
      url,
      {
        method: 'POST',
        agent: false,
        lookup: guardedLookup(options.policy),
        signal: AbortSignal.timeout(options.timeoutMs),
        headers: {
          ...headers,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          'user-agent': options.userAgent,
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          if (size < SNIPPET_BYTES) chunks.push(chunk);
          size += chunk.length;
        });
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            snippet: Buffer.concat(chunks)
              .subarray(0, SNIPPET_BYTES)
              .toString('utf8')
              .replace(/\uFFFD+$/, ''),
          }),
        );
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}
