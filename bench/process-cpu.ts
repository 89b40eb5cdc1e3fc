import { readFileSync } from 'node:fs';

/**
 * CPU seconds (user + system) a process has used so far, from /proc/<pid>/stat; null where /proc is missing.
 * CPU time per request is far less sensitive than req/s to other work on the machine, so the bench prints it
 * beside each workload to judge a change while the machine is busy.
 */
export function cpuSeconds(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may contain spaces) start after the last ')'; utime and stime are the
    // 14th and 15th fields of the line, in clock ticks (100 per second on Linux).
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return null;
  }
}
