import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

/** Debian's package (`apt-get install pgbouncer`); PGBOUNCER_PATH names another binary. */
export const PGBOUNCER = process.env.PGBOUNCER_PATH ?? '/usr/sbin/pgbouncer';
export const hasPgBouncer = existsSync(PGBOUNCER);

export interface PgBouncer {
  /** `serverUrl`'s URL with PgBouncer's address: the same user, database and password, through the pooler. */
  url(databaseUrl: string): string;
  /** What PgBouncer logged so far (its stderr), for a failing test's message. */
  log(): string;
  stop(): Promise<void>;
}

/**
 * A PgBouncer of the test's own, in transaction mode, in front of the PostgreSQL server of `serverUrl`: a
 * configuration in a temporary directory, any database name passed through (`*`), clients trusted (the auth file
 * names the server's user), listening on a free port of 127.0.0.1. Run in the foreground as a child process;
 * as root (CI's container), as `nobody`, since PgBouncer refuses to run as root.
 */
export async function startPgBouncer(serverUrl: string): Promise<PgBouncer> {
  const server = new URL(serverUrl);
  const user = decodeURIComponent(server.username || 'postgres');
  const password = decodeURIComponent(server.password);
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'fx-pgbouncer-'));
  const ini = join(dir, 'pgbouncer.ini');
  const authFile = join(dir, 'users.txt');
  const target = [`host=${server.hostname}`, `port=${server.port || 5432}`, `user=${user}`];
  if (password) target.push(`password=${password}`);
  writeFileSync(
    ini,
    [
      '[databases]',
      `* = ${target.join(' ')}`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      'unix_socket_dir =',
      'auth_type = trust',
      `auth_file = ${authFile}`,
      'pool_mode = transaction',
      'default_pool_size = 20',
      'max_client_conn = 200',
      '',
    ].join('\n'),
  );
  writeFileSync(authFile, `"${user}" ""\n`);
  const asRoot = process.getuid?.() === 0;
  if (asRoot) for (const path of [dir, ini, authFile]) chmodSync(path, path === dir ? 0o755 : 0o644);
  const child: ChildProcess = spawn(PGBOUNCER, [...(asRoot ? ['-u', 'nobody'] : []), ini], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let log = '';
  child.stderr!.on('data', (chunk: Buffer) => void (log += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = (databaseUrl: string) => {
    const through = new URL(databaseUrl);
    through.hostname = '127.0.0.1';
    through.port = String(port);
    return through.toString();
  };
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await untilAccepting(url(serverUrl), () => child.exitCode !== null);
  } catch (err) {
    await stop();
    throw new Error(`PgBouncer did not start: ${(err as Error).message}\n${log}`);
  }
  return { url, log: () => log, stop };
}

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

async function untilAccepting(url: string, died: () => boolean): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const client = new pg.Client({ connectionString: url });
    try {
      await client.connect();
      await client.query('select 1');
      return;
    } catch (err) {
      if (died() || Date.now() > deadline) throw err;
      await new Promise((resolve) => setTimeout(resolve, 100));
    } finally {
      await client.end().catch(() => undefined);
    }
  }
}
