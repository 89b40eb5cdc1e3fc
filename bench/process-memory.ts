import { readFileSync } from 'node:fs';

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
