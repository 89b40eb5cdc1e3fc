import { expect } from 'vitest';
import { API_POLICY } from '../../src/http/plugins/security-headers.js';

/** What the protective headers of one response must be (docs/security.md, "Headers on every response"). */
export interface Expected {
  /** An HTML page: the page policy instead of the API's. */
  html?: boolean;
  /** A static stylesheet or script, which may be cached publicly (it holds no data), or not at all. */
  cacheable?: boolean;
  /** The docs page: its policy may allow fixed inline styles by hash (every other page allows none). */
  styleHashes?: boolean;
  /** Strict-Transport-Security expected (TLS_TERMINATED_UPSTREAM). */
  hsts?: boolean;
}

type Headers = Record<string, string | string[] | number | undefined>;

/** The directives of a Content-Security-Policy header, by name. */
function directives(policy: string): Map<string, string[]> {
  return new Map(
    policy
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter(([name]) => name)
      .map(([name, ...values]) => [name!, values]),
  );
}

/** Asserts every protective header of a response; `label` names the request in a failure. */
export function expectProtected(label: string, headers: Headers, expected: Expected = {}) {
  const got = (name: string) => headers[name];
  const message = label;
  expect(got('x-content-type-options'), message).toBe('nosniff');
  expect(got('x-frame-options'), message).toBe('DENY');
  expect(got('referrer-policy'), message).toBe('no-referrer');
  if (expected.cacheable) expect(String(got('cache-control')), message).toMatch(/^(public, max-age=\d+|no-store)$/);
  else expect(got('cache-control'), message).toBe('no-store');
  const policy = String(got('content-security-policy'));
  if (expected.html) {
    expectStrictPagePolicy(policy);
    if (!expected.styleHashes) expect(directives(policy).get('style-src'), message).toEqual(["'self'"]);
  } else expect(policy, message).toBe(API_POLICY);
  if (expected.hsts) expect(got('strict-transport-security'), message).toBe('max-age=31536000; includeSubDomains');
  else expect(got('strict-transport-security'), message).toBeUndefined();
  // No banner, and no cross-origin grant of any kind.
  for (const absent of [
    'x-powered-by',
    'server',
    'access-control-allow-origin',
    'access-control-allow-credentials',
    'access-control-allow-methods',
    'access-control-allow-headers',
  ])
    expect(got(absent), `${message} has ${absent}`).toBeUndefined();
}

/** The page policy's promises, stated directive by directive (not only as the string the code happens to build). */
function expectStrictPagePolicy(policy: string) {
  const d = directives(policy);
  expect(d.get('default-src')).toEqual(["'none'"]);
  expect(d.get('script-src')).toEqual(["'self'"]);
  // Inline styles only by hash (the docs page: the one fixed style Swagger UI inserts).
  expect(d.get('style-src')?.filter((v) => !/^'sha256-[A-Za-z0-9+/]{43}='$/.test(v))).toEqual(["'self'"]);
  expect(d.get('frame-ancestors')).toEqual(["'none'"]);
  expect(d.get('form-action')).toEqual(["'self'"]);
  expect(d.get('base-uri')).toEqual(["'none'"]);
  for (const values of d.values()) {
    expect(values).not.toContain("'unsafe-inline'");
    expect(values).not.toContain("'unsafe-eval'");
    // Same-origin only: no other host, no scheme-wide source (data: is allowed for images alone).
    expect(values.filter((v) => /^(https?:|\*|[a-z0-9.-]+\.[a-z]{2,})/i.test(v))).toEqual([]);
  }
  for (const [name, values] of d) if (name !== 'img-src') expect(values).not.toContain('data:');
}

/** No inline script, no inline style, no event-handler attribute in a page's markup (the policy would block them). */
export function expectNoInlineCode(label: string, body: string) {
  expect(body.match(/<script(?![^>]*\ssrc=)[^>]*>/gi), `${label}: inline script`).toBeNull();
  expect(body.match(/<style[\s>]/gi), `${label}: inline style element`).toBeNull();
  expect(body.match(/\sstyle\s*=/gi), `${label}: style attribute`).toBeNull();
  expect(body.match(/\son[a-z]+\s*=/gi), `${label}: event-handler attribute`).toBeNull();
  expect(body.match(/javascript:/gi), `${label}: javascript: URL`).toBeNull();
}
