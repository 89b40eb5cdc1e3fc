import type { FastifyRequest } from 'fastify';

type RouteOptions = FastifyRequest['routeOptions'];

const MATCHED = Symbol('matched route');

/**
 * The options of the route a request matched, read from Fastify once per request. Fastify's `request.routeOptions`
 * is a getter that builds a new object of a dozen fields on every read (and asks the router about version
 * constraints); the hooks of one partner request read it six or seven times, which was garbage for the young
 * generation on every request (docs/performance/request-path.md). A request's route does not change once routed.
 */
export function routeOf(request: FastifyRequest): RouteOptions {
  const held = request as FastifyRequest & { [MATCHED]?: RouteOptions };
  return (held[MATCHED] ??= request.routeOptions);
}
