import { describe, expect, it } from 'vitest';
import type { PhaseMemory } from '../../bench/process-memory.js';
import { memoryTargets } from '../../bench/targets.js';

const phase = (name: string, peakMb: number): PhaseMemory => ({ phase: name, peakMb, marks: [], detail: null });

describe('the bench memory targets (decision 78)', () => {
  const phases = [phase('load workloads and batches', 190), phase('receipts', 214), phase('statement import', 170)];

  it('words the embedded bound as BENCHMARKS.md names it and judges the highest phase, not the first', () => {
    const [target] = memoryTargets('embedded', phases);
    expect(target!.description).toBe('peak RSS ≤ 200 MB on the embedded database');
    expect(target!.met).toBe(false);
    expect(target!.actual).toContain('214 MB at most (receipts)');
    expect(target!.actual).toContain('over 3 processes');
  });

  it('bounds PostgreSQL at 150 MB', () => {
    const [target] = memoryTargets('postgres', [phase('load workloads and batches', 149.6), phase('receipts', 150)]);
    expect(target!.description).toBe('peak RSS ≤ 150 MB on PostgreSQL');
    expect(target!.met).toBe(true);
    expect(memoryTargets('postgres', [phase('receipts', 150.4)])[0]!.met).toBe(false);
  });

  it('states no target when no phase was measured', () => {
    expect(memoryTargets('embedded', [])).toEqual([]);
  });
});
