import { randomUUID } from 'node:crypto';
import type { Request } from 'autocannon';
import { addDays } from '../src/domain/calendar-date.js';
import { send } from './load.js';
import { headersOf, MONEY_RUNS, type MoneyResult, type MoneyRun } from './money-support.js';
import { cpuSeconds } from './process-cpu.js';
import type { RunningService } from './service.js';
import { CHANNEL, FUNDRAISER_ID, type Credentials } from './workloads.js';

export const DEBITS = Number(process.env.BENCH_DEBITS ?? 10_000);

/** A partner's call to the service; the envelope's items, or an error naming the answer. */
async function call(service: RunningService, method: 'GET' | 'POST', path: string, body?: object): Promise<any> {
  const response = await fetch(`${service.baseUrl}${path}`, {
    method,
    headers: headersOf(service.credentials)(body ? { 'content-type': 'application/json' } : {}),
    ...(body ? { body: JSON.stringify(body) } : {}),
    signal: AbortSignal.timeout(15 * 60_000),
  });
  const text = await response.text();
  if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${text.slice(0, 300)}`);
  return (JSON.parse(text) as { data: { items: unknown } }).data.items;
}

function planRequest(path: string, credentials: Credentials, mandateId: string, startDate: string): Request {
  return {
    method: 'POST',
    path,
    headers: { ...headersOf(credentials)(), 'content-type': 'application/json' },
    setupRequest: (request) => ({
      ...request,
      headers: { ...request.headers, 'x-correlation-id': randomUUID() },
      body: JSON.stringify({
        mandateId,
        amount: '25.00',
        frequency: 'monthly',
        startDate,
        partnerReference: randomUUID(),
      }),
    }),
  };
}

/**
 * Debits due at once, in the sandbox (the payment simulator): DEBITS monthly plans of one succeeded mandate start
 * tomorrow by the partner's sandbox clock, then the clock is moved a day forward (POST /sandbox/clock/advance, as
 * test/recurring/support.ts does), which creates every due debit and submits each to the simulator. Timed from
 * that POST to its answer; the answer's counts say each debit was created and submitted once (the database is
 * checked after the service stops: checkDebits). Before each later run the clock moves three days untimed, so the
 * earlier run's payments settle outside the measurement.
 */
export async function measureDebits(
  service: RunningService,
  progress: (message: string) => void,
): Promise<MoneyResult> {
  const runs: MoneyRun[] = [];
  const basePath = new URL(service.baseUrl).pathname.replace(/\/$/, '');
  try {
    const { mandateId } = await call(service, 'POST', '/mandates', {
      source: { channel: CHANNEL, fundraiserId: FUNDRAISER_ID },
      fundraiser: { firstName: 'Pat', lastName: 'Payer', email: 'pat.payer@example.com' },
      paymentMethod: 'Direct Debit',
    });
    await call(service, 'POST', `/sandbox/mandates/${mandateId}/confirm`, {
      bsb: '000-000',
      accountNumber: '000123456',
    });
    for (let i = 0; i < MONEY_RUNS; i += 1) {
      if (i > 0) await call(service, 'POST', '/sandbox/clock/advance', { duration: 'P3D' });
      const { today } = (await call(service, 'GET', '/sandbox/clock')) as { today: string };
      const planPath = `${basePath}/recurring-donations`;
      const plans = await send(
        {
          origin: service.origin,
          connections: 50,
          request: planRequest(planPath, service.credentials, mandateId, addDays(today, 1)),
        },
        DEBITS,
      );
      if (plans.errors > 0) throw new Error(`${plans.errors} plans refused: ${JSON.stringify(plans.statuses)}`);
      const cpuBefore = cpuSeconds(service.pid);
      const started = performance.now();
      const answer = (await call(service, 'POST', '/sandbox/clock/advance', { duration: 'P1D' })) as {
        debitsCreated: number;
        triesSubmitted: number;
      };
      const ms = performance.now() - started;
      const cpuAfter = cpuSeconds(service.pid);
      runs.push({
        ms,
        perSecond: answer.triesSubmitted / (ms / 1000),
        cpuUsPerItem: cpuBefore === null || cpuAfter === null ? null : ((cpuAfter - cpuBefore) * 1e6) / DEBITS,
        peakRssMb: null,
        errors: Math.abs(answer.debitsCreated - DEBITS) + Math.abs(answer.triesSubmitted - DEBITS),
        detail: `${answer.debitsCreated} debits created, ${answer.triesSubmitted} submitted`,
      });
      progress(
        `  debits run ${i + 1}: ${Math.round(ms)} ms, ${runs.at(-1)!.perSecond!.toFixed(0)}/s; ${runs.at(-1)!.detail}`,
      );
    }
    return { runs, error: null };
  } catch (err) {
    return { runs, error: (err as Error).message };
  }
}
