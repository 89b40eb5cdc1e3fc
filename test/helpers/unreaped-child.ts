import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';

/**
 * The parent: starts the command, prints its pid, then blocks its event loop on a synchronous read of stdin. Node
 * reaps children from its event loop, so until stdin ends a child that exits stays a zombie; then it is killed (if it
 * still runs) and reaped.
 */
const PARENT = `const { spawn } = require('node:child_process');
const { readSync } = require('node:fs');
const [command, ...args] = JSON.parse(process.argv[1]);
const child = spawn(command, args, { stdio: ['ignore', 'inherit', 'inherit'] });
process.stdout.write('unreaped-pid=' + child.pid + '\\n');
try { readSync(0, Buffer.alloc(1)); } catch {}
child.on('exit', () => process.exit(0));
child.kill('SIGKILL');`;

export interface UnreapedChild {
  /** The child's pid, once its parent has started it. */
  pid: Promise<number>;
  /** What the child (and its parent) printed so far. */
  output(): { stdout: string; stderr: string };
  /** Lets the parent kill the child if it still runs, reap it and exit. */
  release(): Promise<void>;
}

/**
 * Runs `command` as the child of a process that does not reap it until `release()`: killed, the child stays a
 * zombie (exited, not yet waited for), which is what a supervisor that restarts a service at once leaves behind.
 * `env` is the child's environment (the parent passes its own on).
 */
export function spawnUnreaped(command: string, args: string[], env: NodeJS.ProcessEnv = process.env): UnreapedChild {
  const parent = spawn(process.execPath, ['-e', PARENT, JSON.stringify([command, ...args])], {
    env,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  // Released after it ended on its own: nothing is left to tell.
  parent.stdin.on('error', () => undefined);
  let stdout = '';
  let stderr = '';
  parent.stderr.on('data', (chunk) => (stderr += chunk));
  const exited = new Promise<void>((resolve) => parent.on('exit', () => resolve()));
  const pid = new Promise<number>((resolve, reject) => {
    parent.stdout.on('data', (chunk) => {
      stdout += chunk;
      const match = /^unreaped-pid=(\d+)$/m.exec(stdout);
      if (match) resolve(Number(match[1]));
    });
    void exited.then(() => reject(new Error(`the parent exited before starting ${command}: ${stderr}`)));
  });
  return {
    pid,
    output: () => ({ stdout, stderr }),
    async release() {
      parent.stdin.end();
      await exited;
    },
  };
}

/** The state letter of a process (proc(5), /proc/<pid>/stat field 3: R, S, D, Z…), or null when there is none. */
export function processState(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Field 2, the command name, is in parentheses and may hold spaces: field 3 follows the last ')'.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0] ?? null;
  } catch {
    return null;
  }
}

/** Resolves once `pid` is a zombie: it has exited and its parent has not reaped it. */
export async function untilZombie(pid: number): Promise<void> {
  for (let state = processState(pid); state !== 'Z'; state = processState(pid)) {
    if (state === null) throw new Error(`process ${pid} is gone, reaped: it was to stay a zombie`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
