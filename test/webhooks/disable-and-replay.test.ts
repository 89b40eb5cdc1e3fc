import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, ok, type Cli } from '../cli/harness.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { registerEndpoint, startReceiver, verify, webhookWorker, type Receiver } from './support.js';

/**
 * An endpoint that keeps failing: retried until the schedule is exhausted, disabled once it has failed for longer
 * than WEBHOOK_DISABLE_AFTER_SECONDS (with the reason shown to the partner and to operators), then re-enabled by
 * an operator, who replays the missed event.
 */
describe('failing endpoints: retries, disabling, operators and replays', () => {
  let t: TestApp;
  let receiver: Receiver;
  let run: Cli;
  let clock: Date;
  let worker: ReturnType<typeof webhookWorker>;

  beforeAll(async () => {
    t = await startTestApp({ env: { WEBHOOK_RETRY_SCHEDULE: '1,1', WEBHOOK_DISABLE_AFTER_SECONDS: '3600' } });
    receiver = await startReceiver();
    clock = new Date();
    // The worker's clock is moved by hand: "failing for an hour" takes no hour.
    worker = webhookWorker(t, { now: () => clock });
    run = cli({ database: t.database });
  });
  afterAll(async () => {
    await t.close();
    await receiver.close();
  });

  it('gives up after the schedule, disables the endpoint once it has failed long enough, and replays', async () => {
    receiver.respondWith(() => 503);
    const endpoint = await registerEndpoint(t, receiver.url);

    // First event: 1 attempt + 2 retries, all failing; the delivery gives up, the endpoint stays enabled.
    const first = (await t.post(`/webhook-endpoints/${endpoint.id}/test`, undefined)).json().data.items;
    expect(await worker.runPending({ now: true })).toBe(3);
    expect(receiver.requests).toHaveLength(3);
    let deliveries = (await t.get(`/webhook-endpoints/${endpoint.id}/deliveries`)).json().data.items;
    expect(deliveries[0]).toMatchObject({
      id: first.deliveryId,
      status: 'failed',
      attempts: 3,
      failureReason: 'gave up after 3 attempts (last: HTTP 503)',
    });
    expect(deliveries[0].attemptLog.map((a: { responseStatus: number }) => a.responseStatus)).toEqual([503, 503, 503]);
    expect((await t.get(`/webhook-endpoints/${endpoint.id}`)).json().data.items).toMatchObject({ status: 'enabled' });

    // An hour later, still failing: disabled, with the reason for the partner.
    clock = new Date(clock.getTime() + 3601_000);
    const second = (await t.post(`/webhook-endpoints/${endpoint.id}/test`, undefined)).json().data.items;
    expect(await worker.runPending({ now: true })).toBe(1);
    const disabled = (await t.get(`/webhook-endpoints/${endpoint.id}`)).json().data.items;
    expect(disabled.status).toBe('disabled');
    expect(disabled.disabledReason).toMatch(
      /^Every delivery failed since .* \(last: HTTP 503\); disabled automatically\.$/,
    );
    deliveries = (await t.get(`/webhook-endpoints/${endpoint.id}/deliveries`)).json().data.items;
    expect(deliveries[0]).toMatchObject({ id: second.deliveryId, status: 'failed', attempts: 1 });

    // Disabled: no test events, nothing sent for new events (they stay in the event log).
    const refused = await t.post(`/webhook-endpoints/${endpoint.id}/test`, undefined);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.cause).toMatch(/is disabled: Every delivery failed/);

    // Operators see it and why.
    const listed = await ok(run, 'webhooks', 'list', '--status', 'disabled');
    expect(listed).toEqual([
      expect.objectContaining({ id: endpoint.id, partnerName: 'Demo Storefront Partner', status: 'disabled' }),
    ]);
    expect(listed[0].disabledReason).toBe(disabled.disabledReason);
    const table = await run('webhooks', 'list');
    expect(table.stdout).toContain('disabled automatically');

    // The receiver is fixed; an operator re-enables the endpoint and replays the first event.
    receiver.respondWith(() => 204);
    await ok(run, 'webhooks', 'enable', endpoint.id);
    clock = new Date();
    const replay = await ok(run, 'webhooks', 'replay', first.eventId);
    expect(replay.deliveries).toEqual([{ endpointId: endpoint.id, deliveryId: expect.any(String) }]);
    expect(await worker.runPending()).toBe(1);
    const replayed = receiver.requests.at(-1)!;
    expect(replayed.status).toBe(204);
    expect(replayed.headers['webhook-id']).toBe(first.eventId);
    expect(replayed.json()).toMatchObject({ id: first.eventId, type: 'webhook.test' });
    expect(receiver.requests[0]!.body).toBe(replayed.body);
    expect(verify(endpoint.secret, replayed)).toBeTruthy();

    const history = await ok(run, 'webhooks', 'deliveries', '--event', first.eventId);
    expect(history.map((d: { status: string }) => d.status)).toEqual(['delivered', 'failed']);
    expect(history[0].replayOf).toBe(first.deliveryId);
    const audit = await ok(run, 'audit', 'list');
    expect(audit.map((e: { action: string }) => e.action)).toEqual(
      expect.arrayContaining(['webhook.enable', 'webhook.replay']),
    );
  }, 120_000);

  it('lets an operator disable an endpoint with a reason the partner reads; pending deliveries stop', async () => {
    receiver.respondWith(() => 200);
    const endpoint = await registerEndpoint(t, receiver.url);
    const sent = (await t.post(`/webhook-endpoints/${endpoint.id}/test`, undefined)).json().data.items;
    await ok(run, 'webhooks', 'disable', endpoint.id, '--reason', 'Receiver answers with donor data; call us');
    const before = receiver.requests.length;
    await worker.runPending();
    expect(receiver.requests).toHaveLength(before);
    const read = (await t.get(`/webhook-endpoints/${endpoint.id}`)).json().data.items;
    expect(read).toMatchObject({ status: 'disabled', disabledReason: 'Receiver answers with donor data; call us' });
    const [delivery] = (await t.get(`/webhook-endpoints/${endpoint.id}/deliveries`)).json().data.items;
    expect(delivery).toMatchObject({
      id: sent.deliveryId,
      status: 'failed',
      failureReason: 'endpoint disabled by an operator',
    });
    const replay = await run('webhooks', 'replay', sent.eventId, '--endpoint', endpoint.id);
    expect(replay.code).toBe(1);
    expect(replay.stderr).toContain('is disabled; enable it first');
  });

  it('prunes events past the retention period with their deliveries', async () => {
    const pruned = await ok(run, 'webhooks', 'prune');
    expect(pruned).toEqual({ pruned: 0 });
    const old = cli({ database: t.database, now: () => new Date(Date.now() + 31 * 86_400_000) });
    const later = await ok(old, 'webhooks', 'prune');
    expect(later.pruned).toBeGreaterThan(0);
    expect((await t.get('/events')).json().data.items.events).toEqual([]);
  });
});
