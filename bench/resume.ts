import { randomUUID } from 'node:crypto';
import { batchState, createDonations, postBatch, until, type MoneyRun } from './money-support.js';
import { startService, type RunningService, type ServiceOptions } from './service.js';
import { DONATION_AMOUNT } from './workloads.js';

export const RESUME_ENTRIES = 2_000;
/** A run whose kill landed after the batch completed says nothing: it is tried again, this many times at most. */
const ATTEMPTS = 3;

export interface ResumeRun extends MoneyRun {
  batchId: string;
}

/**
 * kill -9 in the middle of a reconciliation, then a restart: a batch of RESUME_ENTRIES entries (one fresh donation
 * each) is posted, the service is killed as soon as the batch reads `processing` (its run has started and holds the
 * batch's transaction open), and a new service is started on the same database. Timed from the restart (the spawn
 * of the new process) to the batch's completion (its `completedAt`, the database's clock on the same machine).
 * Returns the restarted service, which the caller goes on with; exactly once is checked in the database after the
 * service stops (bench/money-checks.ts).
 */
export async function measureResume(
  service: RunningService,
  options: ServiceOptions,
): Promise<{ run: ResumeRun; service: RunningService }> {
  const basePath = new URL(service.baseUrl).pathname.replace(/\/$/, '');
  const credentials = service.credentials;
  for (let attempt = 1; ; attempt += 1) {
    const donations = await createDonations(service.origin, basePath, credentials, RESUME_ENTRIES);
    const runId = randomUUID().slice(0, 8);
    const batchId = await postBatch(
      service.baseUrl,
      credentials,
      donations.map((donationId, n) => ({
        reference: `RSM-${runId}-${n}`,
        amount: Number(DONATION_AMOUNT),
        donationId,
      })),
    );
    const seen = await until(
      () => batchState(service.baseUrl, credentials, batchId),
      (s) => s.status !== 'accepted',
      'the batch to start',
      60_000,
      2,
    );
    await service.kill();
    const restartedAt = Date.now();
    const restarted = await startService({ ...options, credentials, logName: 'service-resumed.log' });
    const readyMs = Date.now() - restartedAt;
    const done = await until(
      () => batchState(restarted.baseUrl, credentials, batchId),
      (s) => s.status.startsWith('completed') || s.status.startsWith('HTTP'),
      'the batch to complete after the restart',
      120_000,
      20,
    );
    const midRun = seen.status === 'processing';
    const ms = done.completedAt ? Date.parse(done.completedAt) - restartedAt : Date.now() - restartedAt;
    const run: ResumeRun = {
      batchId,
      ms,
      perSecond: null,
      cpuUsPerItem: null,
      peakRssMb: null,
      errors: done.status === 'completed' ? 0 : 1,
      detail: `killed while ${seen.status}; restarted service ready after ${readyMs} ms; ${done.status}`,
    };
    if (midRun || attempt === ATTEMPTS) return { run, service: restarted };
    service = restarted;
  }
}
