import { spawn } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync, statSync } from 'node:fs';

export interface ChildOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** stdout and stderr go to this file, not to a pipe the bench would have to drain while it generates load. */
  logFile: string;
  /** Extra node flags, e.g. --cpu-prof. */
  nodeArgs?: string[];
}

export interface Child {
  pid: number;
  /** Resolves with the first match of `pattern` in the child's output; rejects if the child exits first. */
  waitFor(pattern: RegExp, timeoutMs: number): Promise<RegExpExecArray>;
  /** SIGTERM (graceful shutdown), then SIGKILL if it has not exited within `graceMs`. */
  stop(graceMs?: number): Promise<void>;
  /** SIGKILL at once (kill -9: no shutdown, no cleanup), resolving once the process has exited. */
  kill(): Promise<void>;
}

/**
 * Runs an entry point in its own node process — a TypeScript one through tsx's loader (`node --import tsx`), a
 * compiled one as is — so the pid is the process that serves (no wrapper process between), which is what the RSS
 * sampler and --cpu-prof need.
 */
export function startChild(script: string, options: ChildOptions): Child {
  // The log is appended to (a workload may start the same child several times): only what this child writes counts,
  // or waitFor would match the banner of an earlier, stopped child and hand back its port.
  const startOffset = existsSync(options.logFile) ? statSync(options.logFile).size : 0;
  const fd = openSync(options.logFile, 'a');
  const loader = script.endsWith('.ts') ? ['--import', 'tsx'] : [];
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), ...loader, script], {
    cwd: options.cwd,
    env: options.env,
    stdio: ['ignore', fd, fd],
  });
  closeSync(fd);
  if (child.pid === undefined) throw new Error(`could not start ${script}`);
  let exitCode: number | null | undefined;
  const exited = new Promise<void>((resolve) => {
    child.on('exit', (code, signal) => {
      exitCode = code ?? (signal ? -1 : null);
      resolve();
    });
  });
  const output = () => readFileSync(options.logFile).subarray(startOffset).toString('utf8');

  return {
    pid: child.pid,
    async waitFor(pattern, timeoutMs) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const match = pattern.exec(output());
        if (match) return match;
        if (exitCode !== undefined)
          throw new Error(`${script} exited (code ${exitCode}) before printing ${pattern}:\n${tail(output())}`);
        if (Date.now() > deadline)
          throw new Error(`${script} did not print ${pattern} within ${timeoutMs} ms:\n${tail(output())}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    async stop(graceMs = 15_000) {
      if (exitCode !== undefined) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      await exited;
      clearTimeout(timer);
    },
    async kill() {
      if (exitCode !== undefined) return;
      child.kill('SIGKILL');
      await exited;
    },
  };
}

function tail(text: string, lines = 30): string {
  return text.split('\n').slice(-lines).join('\n');
}
