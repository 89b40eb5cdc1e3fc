import { readFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Row } from './report.js';

/**
 * Peak resident memory of a process, from Linux's /proc/<pid>/status: VmHWM is the kernel's own high-water mark,
 * so nothing between two samples is missed. Sampling VmRSS as well guards against kernels without VmHWM.
 */
export class PeakRssSampler {
  private peakKb = 0;
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly pid: number,
    intervalMs = 200,
  ) {
    this.timer = setInterval(() => this.sample(), intervalMs);
    this.timer.unref();
  }

  /** Takes a last sample and stops; returns the peak in MB, or null where /proc is not available. */
  stop(): number | null {
    this.sample();
    clearInterval(this.timer);
    return this.peakKb > 0 ? this.peakKb / 1024 : null;
  }

  /** Current and peak RSS in MB, for progress lines (which phase grows the process). */
  now(): { rssMb: number; peakMb: number } {
    this.sample();
    return { rssMb: this.lastRssKb / 1024, peakMb: this.peakKb / 1024 };
  }

  private lastRssKb = 0;

  private sample(): void {
    let status: string;
    try {
      status = readFileSync(`/proc/${this.pid}/status`, 'utf8');
    } catch {
      return;
    }
    for (const field of ['VmHWM', 'VmRSS']) {
      const kb = Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0);
      if (field === 'VmRSS') this.lastRssKb = kb;
      if (kb > this.peakKb) this.peakKb = kb;
    }
  }
}

/** Where the memory was at a process's highest sample (bench/memory-probe.js, BENCH_MEMORY_DETAIL=1), in MB. */
export interface MemoryDetail {
  rssMb: number;
  heapTotalMb: number;
  heapUsedMb: number;
  externalMb: number;
  arrayBuffersMb: number;
  wasmMemoryMb: number;
  nativeMb: number;
  resident: { wasmMemory: number; code: number; files: number; brk: number; otherAnonymous: number } | null;
}

/** One process of the run (a service started for some workloads, an import): its VmHWM, and what raised it. */
export interface PhaseMemory {
  phase: string;
  peakMb: number;
  /** The high-water mark after each workload the process ran, in order: the workload that raised it is the peak's. */
  marks: { label: string; peakMb: number }[];
  detail: MemoryDetail | null;
}

const phases: PhaseMemory[] = [];

/** BENCH_MEMORY_DETAIL=1: the service and the import run with the probe, and the table splits heap from native. */
const memoryDetail = process.env.BENCH_MEMORY_DETAIL === '1';
const MEMORY_PROBE = fileURLToPath(new URL('./memory-probe.js', import.meta.url));

/** The node flags and variables that load the probe into a process writing to `file` (none without the knob). */
export function probeLaunch(file: string): { nodeArgs: string[]; env: NodeJS.ProcessEnv } {
  if (!memoryDetail) return { nodeArgs: [], env: {} };
  return { nodeArgs: [`--import=${pathToFileURL(MEMORY_PROBE).href}`], env: { BENCH_MEMORY_PROBE_FILE: file } };
}

/** Records a finished process's peak (and the probe's split when it ran) as one phase of the run. */
export function recordPhase(
  phase: string,
  peakMb: number | null,
  probeFile: string | null,
  marks: PhaseMemory['marks'] = [],
): void {
  if (peakMb === null) return;
  let detail: MemoryDetail | null = null;
  if (memoryDetail && probeFile)
    try {
      detail = JSON.parse(readFileSync(probeFile, 'utf8')) as MemoryDetail;
    } catch {
      detail = null;
    }
  phases.push({ phase, peakMb, marks, detail });
}

/** Every phase recorded so far, in the order they ended. */
export function phasesMeasured(): readonly PhaseMemory[] {
  return phases;
}

/**
 * The phases' peaks as one row (BENCHMARKS.md is a scoreboard): each phase's VmHWM, the workloads in the order they
 * raised it, and the probe's split when it ran; a phase that ran in several processes (restarts, runs) once, with the
 * highest and every process's figure.
 */
export function memoryRows(all: readonly PhaseMemory[]): Row[] {
  if (all.length === 0) return [];
  const byPhase = new Map<string, PhaseMemory[]>();
  for (const p of all) byPhase.set(p.phase, [...(byPhase.get(p.phase) ?? []), p]);
  const parts = [...byPhase.entries()].map(([phase, runs]) => {
    const highest = runs.reduce((a, b) => (b.peakMb > a.peakMb ? b : a));
    const each =
      runs.length === 1 ? '' : ` (${runs.length} processes: ${runs.map((r) => Math.round(r.peakMb)).join(', ')})`;
    return `${phase} ${Math.round(highest.peakMb)} MB${each}${marksOf(highest)}${splitOf(highest)}`;
  });
  const peak = Math.max(...all.map((p) => p.peakMb));
  return [{ workload: 'peak RSS (VmHWM) per phase', p50: `${Math.round(peak)} MB at most: ${parts.join('; ')}` }];
}

/** The workloads in the order they raised a phase's peak, a workload's runs in a row as its last. */
function marksOf(p: PhaseMemory): string {
  const marks: { label: string; peakMb: number }[] = [];
  for (const m of p.marks)
    if (marks.at(-1)?.label === m.label) marks[marks.length - 1] = m;
    else marks.push(m);
  return marks.length === 0 ? '' : ` (after ${marks.map((m) => `${m.label} ${Math.round(m.peakMb)}`).join(', ')})`;
}

/** The probe's split of a phase's highest sample, when BENCH_MEMORY_DETAIL ran it. */
function splitOf(p: PhaseMemory): string {
  const d = p.detail;
  const r = d?.resident;
  if (!d) return '';
  return (
    ` [at the highest sample RSS ${d.rssMb}: V8 heap ${d.heapTotalMb} (used ${d.heapUsedMb}), native ${d.nativeMb}` +
    (r
      ? `; WebAssembly memory ${r.wasmMemory} of ${d.wasmMemoryMb}, code ${r.code}, files ${r.files}, malloc brk ${r.brk}, other anonymous ${r.otherAnonymous} incl. the heap]`
      : ']')
  );
}
