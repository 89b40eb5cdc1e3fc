import { Type } from '@sinclair/typebox';
import { rotateOwnCredential } from '../../../services/credentials/self-rotation.js';
import { markReplay, requestContext, sendItems, type App, type RouteDeps } from '../../route-context.js';
import { PostHeaders } from '../../../contract/common.js';
import { envelopeResponse, errorResponses, ResponseHeaders } from '../../schemas/responses.js';

const Rotated = Type.Object({
  clientId: Type.String({ description: 'The new pair’s client id.' }),
  clientSecret: Type.String({ description: 'The new secret: shown here only (and to a retry with the same key).' }),
  previousClientId: Type.String({ description: 'The pair you called with.' }),
  previousExpiresAt: Type.String({ format: 'date-time', description: 'It keeps working until then (14 days).' }),
});

/** POST /credentials/rotate (extension): the partner rotates its own credential, with the contract's overlap. */
export default async function rotateCredentialRoute(app: App, { config, db, webhooks, now }: RouteDeps) {
  app.post(
    '/credentials/rotate',
    {
      schema: {
        tags: ['credentials'],
        operationId: 'rotateCredential',
        summary: 'Rotate your credential',
        description:
          'Issues a new pair for the credential you call with and returns its secret once (a retry with the same ' +
          'Idempotency-Key shows it again). The pair you called with keeps working for 14 days (contract section ' +
          '5.6), then stops; your security contacts are told. At most CREDENTIAL_SELF_ROTATIONS_PER_DAY rotations in ' +
          '24 hours (429 with Retry-After). A credential already rotated is 409: rotate the new one. For a leaked ' +
          'secret ask the foundation for an emergency rotation (no overlap).',
        headers: PostHeaders,
        response: {
          201: envelopeResponse(
            '/credentials',
            Rotated,
            'The new pair.',
            {
              clientId: 'sit_6n5rjj4s2dx76x5k74gg',
              clientSecret: 'FFGF8812QJ0Y0K2M4N6P8R0T2V4X6Z8B0D2F4H6J8K0M2P4R6T8V',
              previousClientId: 'sit_9yy6ww5c4fajyd18372f',
              previousExpiresAt: '2026-12-11T09:30:00.000Z',
            },
            { ...ResponseHeaders.replayed },
          ),
          ...errorResponses('/credentials', 'CONFLICT'),
        },
      },
      config: { envelopeMethod: '/credentials' },
    },
    async (request, reply) => {
      const result = await rotateOwnCredential(
        {
          db,
          secretBox: webhooks.secretBox,
          now,
          perDay: config.CREDENTIAL_SELF_ROTATIONS_PER_DAY,
        },
        requestContext(request, config),
      );
      markReplay(reply, result.replayed);
      // The secret must not linger in caches or logs of proxies.
      reply.header('cache-control', 'no-store');
      return sendItems(request, reply, result.items, result.status);
    },
  );
}
