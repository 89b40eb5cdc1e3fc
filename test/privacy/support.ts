import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { DeidentifySettings } from '../../src/services/privacy/deidentify.js';
import type { TestApp } from '../helpers/test-app.js';

export const SETTINGS: DeidentifySettings = {
  donorDataYears: 7,
  mailBodyDays: 90,
  timeZone: 'Australia/Sydney',
  batchSize: 3,
};

export const uniqueEmail = (what: string) => `${what}.${randomUUID().slice(0, 8)}@example.com`;

/** `years` calendar years and `days` days after `at`. */
export function later(at: Date, years: number, days = 0): Date {
  const date = new Date(at.getTime() + days * 86_400_000);
  date.setUTCFullYear(date.getUTCFullYear() + years);
  return date;
}

/** The donation row of a reference, with the details the job replaces. */
export function donationRow(t: TestApp, referenceId: string) {
  return t.db.selectFrom('donations').selectAll().where('reference_id', '=', referenceId).executeTakeFirstOrThrow();
}

export async function createdAt(t: TestApp, referenceId: string): Promise<Date> {
  return new Date((await donationRow(t, referenceId)).created_at);
}

/** Moves a donation's creation back by `years` (as if it had arrived then). */
export async function ageDonation(t: TestApp, referenceId: string, years: number) {
  await sql`update donations set created_at = created_at - make_interval(years => ${years})
            where reference_id = ${referenceId}`.execute(t.db);
}

export async function deidentifiedAt(t: TestApp, referenceId: string) {
  const { rows } = await sql<{ at: Date | null }>`select deidentified_at as at from donations
    where reference_id = ${referenceId}`.execute(t.db);
  return rows[0]!.at;
}

/** Totals a report or a register shows: unchanged by de-identification. */
export async function moneyTotals(t: TestApp) {
  const { rows } = await sql<{ donations: string; receipts: string; n: number; partners: number }>`
    select (select coalesce(sum(amount_cents), 0)::text from donations) as donations,
           (select coalesce(sum(amount_cents), 0)::text from receipts where voided_at is null) as receipts,
           (select count(*)::int from receipts) as n,
           (select count(distinct (partner_id, fundraiser_id))::int from donations) as partners`.execute(t.db);
  return rows[0]!;
}
