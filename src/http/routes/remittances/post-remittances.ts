import type { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from '@sinclair/typebox';
import { acceptRemittances } from '../../../services/accept-remittances.js';
import { markReplay, requestContext, sendItems, setLocation, type App, type RouteDeps } from '../../route-context.js';
import { RemittanceEntry, remittancesRequest } from '../../../contract/remittances.js';
import { PostHeaders, SourceWithFundraiser } from '../../../contract/common.js';
import { validatorCompiler } from '../../schemas/validator-options.js';
import { readRemittanceBody } from './remittance-body.js';
import { RemittanceBody, remittanceBodyValidators } from './body-reader.js';
import { BODY_ERRORS, envelopeResponse, errorResponses, ResponseHeaders } from '../../schemas/responses.js';

/** POST /remittances (section 4.8): a batch of bank-settled remittances, reconciled asynchronously. */
export default async function postRemittancesRoute(
  app: App,
  { db, config, onRemittanceBatchStored, onRemittanceBatchCommitted, remittanceBacklog }: RouteDeps,
) {
  const RemittancesRequest = remittancesRequest(config.MAX_REMITTANCE_ENTRIES);
  const compile = validatorCompiler(config);
  const validators = remittanceBodyValidators(compile, {
    source: SourceWithFundraiser,
    entry: RemittanceEntry,
    maxEntries: config.MAX_REMITTANCE_ENTRIES,
    whole: RemittancesRequest,
  });

  const accept = async (request: FastifyRequest, reply: FastifyReply) => {
    const { batch } = request.body as RemittanceBody;
    // The validator passed only a body with a batch.
    const refusal = await remittanceBacklog.refusal();
    const result = await acceptRemittances(
      db,
      batch!,
      requestContext(request, config),
      onRemittanceBatchStored,
      refusal,
    ).catch((err: unknown) => {
      if (err === refusal) remittanceBacklog.countRefusal();
      throw err;
    });
    if (!result.replayed) onRemittanceBatchCommitted?.();
    markReplay(reply, result.replayed);
    setLocation(reply, config, `/remittances/${result.items.batchId}`);
    return sendItems(request, reply, result.items, result.status);
  };

  // The body is read as it arrives, an entry at a time, and checked by the reader (its findings are the schema's):
  // docs/decisions/0079-remittance-body-streamed.md. The schema stays the route's for the OpenAPI document.
  await app.register(async (scoped) => {
    scoped.removeContentTypeParser('application/json');
    scoped.addContentTypeParser('application/json', (request: FastifyRequest, payload: Readable) =>
      readRemittanceBody(payload, request.headers['content-length'], config.BODY_LIMIT_BYTES, validators),
    );
    scoped.post(
      '/remittances',
      {
        schema: routeSchema(RemittancesRequest),
        config: { envelopeMethod: '/remittance', channelFrom: 'body' },
        validatorCompiler: (route) => (route.httpPart === 'body' ? checkedBody : compile(route)),
      },
      (request, reply) => accept(request, reply),
    );
  });
}

/** The body's validator: the reader's findings, as Fastify reports a schema's. */
function checkedBody(data: unknown) {
  const found =
    data instanceof RemittanceBody
      ? data.errors
      : [{ instancePath: '', keyword: 'type', schemaPath: '', params: { type: 'object' }, message: 'must be object' }];
  checkedBody.errors = found;
  return found.length === 0;
}
checkedBody.errors = [] as RemittanceBody['errors'];

/** The route's schema: the OpenAPI document's operation (the body itself is checked by the reader). */
function routeSchema(RemittancesRequest: ReturnType<typeof remittancesRequest>) {
  return {
    operationId: 'postRemittances',
    tags: ['remittances'],
    summary: 'Post a remittance batch',
    description:
      'Bank-settled remittances to reconcile against your donations (section 4.8). 202 once the batch is ' +
      'stored durably; reconciliation runs in the background: read its outcome at the Location (GET ' +
      '/remittances/{batchId}). 406 FUNDRAISER:REMITTANCE POST when `source.fundraiserId` or the fundraiser of ' +
      'a referenced donation has no active enrolment with the channel; unknown donation ids are a ' +
      'reconciliation outcome, not an error. Send an Idempotency-Key so that a retry is not a second batch. ' +
      'Extension: 503 FUNDRAISER:REMITTANCE_BACKLOG with Retry-After while reconciliation is behind (more ' +
      'batches waiting, or the oldest waiting longer, than the deployment allows): the batch is not stored; ' +
      'send it again after Retry-After. A retry of an accepted batch under its Idempotency-Key is answered ' +
      'its 202 whatever the backlog.',
    headers: PostHeaders,
    body: RemittancesRequest,
    response: {
      202: envelopeResponse(
        '/remittance',
        Type.Object({
          status: Type.Literal('Request Accepted'),
          batchId: Type.String({ format: 'uuid', description: 'Added to the contract: the batch to look up.' }),
        }),
        'The batch is stored and queued for reconciliation.',
        { status: 'Request Accepted', batchId: '80d74b21-cbbc-4352-8c51-5102915d9aca' },
        { ...ResponseHeaders.location, ...ResponseHeaders.replayed },
      ),
      ...errorResponses('/remittance', ...BODY_ERRORS, 'REMITTANCE_NOT_ACCEPTED', 'CONFLICT', 'REMITTANCE_BACKLOG'),
    },
  };
}
