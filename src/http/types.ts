import type { Principal } from '../domain/principal.js';

/** Where a route's partner channel is found, for the channel-permission check. */
export type ChannelLocation = 'query' | 'body' | 'none';

declare module 'fastify' {
  interface FastifyRequest {
    /** The request's X-Correlation-ID (or a generated one when it was missing or malformed). */
    correlationId: string;
    /** The authenticated partner; set on every secured route before the handler runs. */
    principal: Principal | null;
    /** Validation findings of hooks that run before the schema (an unknown channel), reported with the schema's. */
    deferredValidationCauses?: string[];
  }
  interface FastifyContextConfig {
    /** The `method` value of the envelope (section 2.1). */
    envelopeMethod?: string;
    /** Where the route's channel is, for the channel-permission check. */
    channelFrom?: ChannelLocation;
    /** Public routes skip authentication and quotas (only the sandbox's hosted mandate page). */
    public?: boolean;
  }
}

export function requirePrincipal(principal: Principal | null): Principal {
  if (!principal) throw new Error('route reached without an authenticated principal');
  return principal;
}
