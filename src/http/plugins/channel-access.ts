import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { ApiError } from '../../errors.js';
import type { ChannelDirectory } from '../../services/channel-directory.js';

/**
 * Channel permission (DESIGN.md §5), after credentials and before quota and validation: a partner may only name
 * channels it was issued. A missing or non-string channel is left to schema validation; a name that is no
 * channel at all is a validation error that lists the known channels: it is held back until the schema has been
 * checked, so that one answer names every bad field (the error handler joins them; see DESIGN.md §8).
 */
export const channelAccessPlugin = fp<{ channels: ChannelDirectory }>(
  async (app: FastifyInstance, { channels }) => {
    app.addHook('preValidation', async (request) => {
      const where = request.routeOptions.config?.channelFrom ?? 'none';
      if (where === 'none' || !request.principal) return;
      const container = where === 'query' ? request.query : (request.body as { source?: unknown } | undefined)?.source;
      const channel = (container as { channel?: unknown } | undefined)?.channel;
      if (typeof channel !== 'string' || channel === '') return;
      if (request.principal.channels.has(channel)) return;
      const known = await channels.list();
      if (!known.includes(channel)) {
        const field = where === 'query' ? 'query.channel' : 'source.channel';
        const cause = `${field}: must be one of ${known.map((c) => JSON.stringify(c)).join(', ')}`;
        request.deferredValidationCauses = [...(request.deferredValidationCauses ?? []), cause];
        return;
      }
      throw new ApiError('UNAUTHORIZED', `No access to the operation for channel ${JSON.stringify(channel)}`);
    });
    // The schema found nothing else: the held-back findings answer alone.
    app.addHook('preHandler', async (request) => {
      const causes = request.deferredValidationCauses;
      if (causes?.length) throw new ApiError('VALIDATION', causes.join('; '));
    });
  },
  { name: 'channel-access', dependencies: ['authenticate'] },
);
