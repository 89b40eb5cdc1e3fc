import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { routeOf } from '../route-of.js';
import type { ApiDeprecation } from '../../infrastructure/db/schema-partner-contacts.js';

/** How long an instance answers from the deprecations it read before reading them again. */
const REFRESH_MS = 60_000;

interface Announced {
  /** `@<epoch seconds>`: when the route became deprecated (RFC 9745's Deprecation). */
  deprecation: string;
  /** HTTP-date of the sunset (RFC 8594). */
  sunset: string;
  link: string | null;
}

/**
 * Deprecation on the wire: a route an operator announced as deprecated answers `Deprecation` (RFC 9745) and
 * `Sunset` (RFC 8594) headers, and `Link: <…>; rel="deprecation"` when the announcement has a link. The
 * announcements are read at start and again at most every minute, on a request (no timer).
 */
export const deprecationHeadersPlugin = fp<{ basePath: string; load: () => Promise<ApiDeprecation[]> }>(
  async (app: FastifyInstance, { basePath, load }) => {
    let routes = index(await load().catch(() => []));
    // Each route's key, as announcements name it, worked out once: the routes are few and fixed.
    const keys = new Map<string, string>();
    const routeKey = (method: string, url: string) => {
      let key = keys.get(method + url);
      if (key === undefined) keys.set(method + url, (key = `${method} ${openApiPath(url.slice(basePath.length))}`));
      return key;
    };
    let readAt = Date.now();
    let reading = false;
    app.addHook('onSend', (request, reply, payload, done) => {
      if (!reading && Date.now() - readAt > REFRESH_MS) {
        reading = true;
        load()
          .then((loaded) => (routes = index(loaded)))
          .catch(() => undefined)
          .finally(() => ((readAt = Date.now()), (reading = false)));
      }
      // Nearly always nothing is announced: no route is looked up then.
      const url = routes.size > 0 ? routeOf(request).url : undefined;
      const announced = url?.startsWith(basePath) ? routes.get(routeKey(request.method, url)) : undefined;
      if (announced) {
        reply.header('deprecation', announced.deprecation);
        reply.header('sunset', announced.sunset);
        if (announced.link) reply.header('link', `<${announced.link}>; rel="deprecation"; type="text/html"`);
      }
      done(null, payload);
    });
  },
  { name: 'deprecation-headers' },
);

/** Fastify's `/donations/:id` as the OpenAPI document and operators write it: `/donations/{id}`. */
export const openApiPath = (url: string) => url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

function index(deprecations: ApiDeprecation[]): Map<string, Announced> {
  const byRoute = new Map<string, Announced>();
  for (const d of deprecations)
    for (const route of d.routes)
      byRoute.set(route, {
        deprecation: `@${Math.floor(new Date(d.announced_at).getTime() / 1000)}`,
        sunset: new Date(d.sunset_at).toUTCString(),
        link: d.link,
      });
  return byRoute;
}
