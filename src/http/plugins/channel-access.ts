import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { routeOf } from '../route-of.js';
import { ApiError } from '../../api-errors.js';
import type { ChannelDirectory } from '../../services/channel-directory.js';

/**
 * Channel permission (docs/decisions/0006-channels-are-reference-data-issued-per-partner.md), after credentials and
 * before quota and validation: a partner may only name channels it was issued. A missing or non-string channel is
 * left to schema validation; a name that is no channel at all is a validation error that lists the known channels:
 * it is held back until the schema has been checked, so that one answer names every bad field (the error handler
 * joins them; see docs/decisions/0034-one-validation-pass-for-hostile-input.md).
 */
export const channelAccessPlugin = fp<{ channels: ChannelDirectory }>(
  async (app: FastifyInstance, { channels }) => {
    app.addHook('preValidation', (request, _reply, done) => {
      const where = routeOf(request).config?.channelFrom ?? 'none';
      if (where === 'none' || !request.principal) return done();
      const container = where === 'query' ? request.query : (request.body as { source?: unknown } | undefined)?.source;
      const channel = (container as { channel?: unknown } | undefined)?.channel;
      if (typeof channel !== 'string' || channel === '') return done();
      if (request.principal.channels.has(channel)) return done();
      // A channel the partner was not issued: the directory says whether it exists at all (rare, so async here).
      refuseChannel(request, where, channel, channels).then(() => done(), done);
    });
    // The schema found nothing else: the held-back findings answer alone.
    app.addHook('preHandler', (request, _reply, done) => {
      const causes = request.deferredValidationCauses;
      done(causes?.length ? new ApiError('VALIDATION', causes.join('; ')) : undefined);
    });
  },
  { name: 'channel-access', dependencies: ['authenticate'] },
);

/** Holds back "no such channel" for the schema's findings, or refuses a channel of another partner's. */
async function refuseChannel(
  request: FastifyRequest,
  where: string,
  channel: string,
  channels: ChannelDirectory,
): Promise<void> {
  const known = await channels.list();
  if (!known.includes(channel)) {
    const field = where === 'query' ? 'query.channel' : 'source.channel';
    const cause = `${field}: must be one of ${known.map((c) => JSON.stringify(c)).join(', ')}`;
    request.deferredValidationCauses = [...(request.deferredValidationCauses ?? []), cause];
    return;
  }
  throw new ApiError('UNAUTHORIZED', `No access to the operation for channel ${JSON.stringify(channel)}`);
}
