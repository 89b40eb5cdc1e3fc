import type { Kysely } from 'kysely';
import { retentionCutoffs, type RetentionPolicy } from '../../domain/privacy.js';
import type { DB } from '../../infrastructure/db/schema.js';
import { addTotals, lockCursor, saveCursor } from '../../infrastructure/repositories/privacy-cursors.js';
import {
  deidentifyDonationBatch,
  deidentifyMailRecipients,
  deidentifyMandateBatch,
  deidentifyStatements,
  purgeMailBodies,
} from '../../infrastructure/repositories/privacy-deidentify.js';

export interface DeidentifySettings extends RetentionPolicy {
  /** PRIVACY_BATCH_SIZE: rows per transaction. */
  batchSize: number;
}

export interface DeidentifyReport {
  donations: number;
  receipts: number;
  corrections: number;
  mandates: number;
  statements: number;
  mailBodies: number;
  mailRecipients: number;
  /** False when the run stopped at its time budget with work left: the worker schedules its continuation at once. */
  finished: boolean;
}

const emptyReport = (): DeidentifyReport => ({
  donations: 0,
  receipts: 0,
  corrections: 0,
  mandates: 0,
  statements: 0,
  mailBodies: 0,
  mailRecipients: 0,
  finished: true,
});

type Counted = Exclude<keyof DeidentifyReport, 'finished'>;

/** Runs `batch` in a transaction after another until it says the work is done, or the time is up (false). */
async function untilDone(
  db: Kysely<DB>,
  outOfTime: () => boolean,
  batch: (trx: Kysely<DB>) => Promise<boolean>,
): Promise<boolean> {
  for (;;) {
    if (await db.transaction().execute(batch)) return true;
    if (outOfTime()) return false;
  }
}

/**
 * One run of the de-identification (docs/privacy.md, "De-identification"): donations (with their receipts and
 * corrections) and mandates walked by key range, each batch committed with its cursor and its counts, so a run killed
 * anywhere resumes after its last committed batch; then statements and mail, in chunks. Every statement skips what is
 * already de-identified, so two runs at once, or a batch done again after a crash, de-identify nothing twice.
 * `budgetMs` bounds the run (the queue's expiry is a hard limit); `now` decides every cutoff.
 */
export async function deidentifyDue(
  db: Kysely<DB>,
  settings: DeidentifySettings,
  now: Date,
  budgetMs = Number.POSITIVE_INFINITY,
): Promise<DeidentifyReport> {
  const started = Date.now();
  const outOfTime = () => Date.now() - started > budgetMs;
  const cutoffs = retentionCutoffs(now, settings);
  const report = emptyReport();
  const limit = settings.batchSize;
  const count = async (trx: Kysely<DB>, counts: Partial<Record<Counted, number>>) => {
    await addTotals(trx, counts, now);
    for (const [kind, n] of Object.entries(counts) as [Counted, number][]) report[kind] += n;
  };

  const donations = (trx: Kysely<DB>) =>
    lockCursor(trx, 'donations').then(async (cursor) => {
      const { donorData: cutoff, receiptHoldFrom: holdFrom } = cutoffs;
      const batch = await deidentifyDonationBatch(trx, { cursor, cutoff, holdFrom, limit, now });
      await saveCursor(trx, 'donations', batch.seen < limit ? null : batch.last);
      await count(trx, { donations: batch.donations, receipts: batch.receipts, corrections: batch.corrections });
      return batch.seen < limit;
    });
  const mandates = (trx: Kysely<DB>) =>
    lockCursor(trx, 'mandates').then(async (cursor) => {
      const batch = await deidentifyMandateBatch(trx, { cursor, cutoff: cutoffs.donorData, limit, now });
      await saveCursor(trx, 'mandates', batch.seen < limit ? null : batch.last);
      await count(trx, { mandates: batch.mandates });
      return batch.seen < limit;
    });
  const statementsBefore = new Date(Math.min(cutoffs.donorData.getTime(), cutoffs.receiptHoldFrom.getTime()));
  const chunk = (kind: Counted, step: (trx: Kysely<DB>) => Promise<number>) => async (trx: Kysely<DB>) => {
    const n = await step(trx);
    await count(trx, { [kind]: n });
    return n < limit;
  };
  const steps = [
    donations,
    mandates,
    chunk('statements', (trx) => deidentifyStatements(trx, statementsBefore, limit, now)),
    chunk('mailBodies', (trx) => purgeMailBodies(trx, cutoffs.mailBodies, limit, now)),
    chunk('mailRecipients', (trx) => deidentifyMailRecipients(trx, cutoffs.donorData, limit, now)),
  ];
  for (const step of steps) if (!(await untilDone(db, outOfTime, step))) return { ...report, finished: false };
  return report;
}
