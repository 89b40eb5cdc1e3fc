import type { LoadResult } from './load.js';
import type { RemittanceResult } from './remittance.js';
import type { Target } from './report.js';

const READ_P99_MS = 10;

/**
 * The targets of issue 5. Ratios and read latency apply to every database; the donation ratio, the reconciliation
 * time and the memory bound are stated for PostgreSQL and are shown for information on the embedded database.
 */
export function evaluateTargets(
  kind: 'postgres' | 'embedded',
  service: Record<string, LoadResult>,
  base: Record<string, LoadResult>,
  remittance: RemittanceResult | null,
  peakRssMb: number | null,
): Target[] {
  const onPostgres = (met: boolean | null) => (kind === 'postgres' ? met : null);
  const ratio = (key: string) => (service[key] && base[key] ? service[key].rps / base[key].rps : null);
  const targets: Target[] = [];
  const ping = ratio('ping');
  if (ping !== null) targets.push({ description: 'GET /ping ≥ 0.75 × baseline', met: ping >= 0.75, actual: `${ping.toFixed(2)}×` });
  const donations = ratio('donations');
  if (donations !== null) {
    targets.push({ description: 'POST /donations ≥ 0.8 × baseline on PostgreSQL', met: onPostgres(donations >= 0.8), actual: `${donations.toFixed(2)}×` });
  }
  for (const key of ['ping', 'fundraisers', 'accounts']) {
    const r = service[key];
    if (r) targets.push({ description: `p99 ≤ ${READ_P99_MS} ms for ${key} at 50 connections`, met: r.p99 <= READ_P99_MS, actual: `${r.p99} ms` });
  }
  if (remittance) {
    const ms = remittance.reconciledMs;
    targets.push({
      description: '10,000-entry batch reconciled ≤ 3 s on PostgreSQL',
      met: ms === null ? null : onPostgres(ms <= 3000 && remittance.errors === 0),
      actual: ms === null ? `not measured: ${remittance.finalStatus}` : `${Math.round(ms)} ms, ${remittance.errors} exceptions`,
    });
  }
  if (peakRssMb !== null) targets.push({ description: 'peak RSS ≤ 250 MB on PostgreSQL', met: onPostgres(peakRssMb <= 250), actual: `${Math.round(peakRssMb)} MB` });
  return targets;
}
