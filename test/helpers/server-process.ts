import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';

export interface ServerProcess {
  child: ChildProcess;
  /** Resolves once the banner is printed (after listen) with the base URL and the ms since spawn. */
  ready: Promise<{ ms: number; base: string; banner: string }>;
  exited: Promise<number | null>;
  output(): { stdout: string; stderr: string };
  kill(signal?: NodeJS.Signals): Promise<number | null>;
}

/**
 * Runs `src/server.ts` through tsx, as `npm run dev` does, with `env` on top of the test's environment; PORT 0 by
 * default.
 */
export function startServerProcess(env: Record<string, string>, registry?: ChildProcess[]): ServerProcess {
  const started = Date.now();
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  registry?.push(child);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const ready = new Promise<{ ms: number; base: string; banner: string }>((resolve, reject) => {
    const timer = setInterval(() => {
      const base = /on (http:\/\/\S+) —/.exec(stdout)?.[1];
      if (base && /OpenAPI:[^\n]*\n[\s\S]*\n\n$/.test(stdout)) {
        clearInterval(timer);
        resolve({ ms: Date.now() - started, base, banner: stdout });
      }
    }, 20);
    void exited.then((code) => {
      clearInterval(timer);
      reject(new Error(`server exited with ${code}: ${stderr}`));
    });
  });
  return {
    child,
    ready,
    exited,
    output: () => ({ stdout, stderr }),
    kill(signal = 'SIGKILL') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}

/** POST /donations to a service process as a partner would send it (fresh correlation id), within `timeoutMs`. */
export function postDonation(
  base: string,
  credentials: { clientId: string; clientSecret: string },
  body: object,
  timeoutMs?: number,
): Promise<Response> {
  return fetch(`${base}/donations`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-correlation-id': randomUUID(),
      client_id: credentials.clientId,
      client_secret: credentials.clientSecret,
    },
    body: JSON.stringify(body),
    signal: timeoutMs === undefined ? undefined : AbortSignal.timeout(timeoutMs),
  });
}
