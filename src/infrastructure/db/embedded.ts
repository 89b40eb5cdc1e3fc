import type { PGlite } from '@electric-sql/pglite';
import { Kysely, type Dialect } from 'kysely';
import { lockDataDirectory } from './data-dir-lock.js';
import type { Database } from './database.js';
import { initialiseDataDirectory, isInitialised } from './embedded-initdb.js';
import type { DB } from './schema.js';
import { pingDatabase } from './with-timeout.js';

/**
 * PostgreSQL settings of the embedded database, sized for one process serving a sandbox or a small foundation
 * rather than for PGlite's defaults (shared_buffers 160 MB, maintenance_work_mem 64 MB), which alone put the
 * service's resident memory near 300 MB. The operating system's page cache still holds the data files, so the
 * buffers are small: every page of them becomes resident once a big batch has passed through (WebAssembly memory
 * never shrinks), and 32 MB instead of 16 MB raised the bench's peak by 18 MB with no change in any timing; 8 MB
 * instead of 16 MB took the touched WebAssembly memory of an idle service from 30 to 21 MB
 * (docs/decisions/0078-memory-bounds-of-the-service.md).
 */
const EMBEDDED_SETTINGS = {
  shared_buffers: '8MB',
  maintenance_work_mem: '16MB',
} as const;

/**
 * Bank matching's memory for its sorts (lockBankMatching): 64 MB on a server, enough to sort a 100,000-line
 * statement's pairs in memory; 4 MB, PostgreSQL's default, in the embedded database's one session (the session
 * setting below), because WebAssembly memory grown for a sort is never given back
 * (docs/decisions/0048-embedded-statement-import-memory.md).
 */
export const MATCHING_WORK_MEM = { setting: 'fundraiser.matching_work_mem', server: '64MB', embedded: '4MB' } as const;

export async function connectEmbedded(dataDir: string, template?: Blob): Promise<Database> {
  const memory = dataDir.startsWith('memory://');
  const release = memory ? async () => {} : await lockDataDirectory(dataDir);
  // Loaded only here: a service on PostgreSQL never pays PGlite's memory (~30–50 MB of RSS).
  const [{ PGlite: PGliteClass }, { PGliteDialect }] = await Promise.all([
    import('@electric-sql/pglite'),
    import('kysely-pglite-dialect'),
  ]);
  const startParams = [
    ...PGliteClass.defaultStartParams,
    ...Object.entries(EMBEDDED_SETTINGS).flatMap(([name, value]) => ['-c', `${name}=${value}`]),
  ];
  let pglite: PGlite;
  try {
    // A new directory's initdb peaks at ~770 MB that the process would keep as its high-water mark for life: it
    // runs in a child process that exits when the directory is ready.
    const fresh = memory || !isInitialised(dataDir);
    if (fresh && !template && !memory) await initialiseDataDirectory(dataDir, startParams);
    // One options object: PGlite.create(undefined, options) ignores the options (an in-memory database then ran
    // with PGlite's default settings).
    const loadDataDir = fresh ? template : undefined;
    pglite = await PGliteClass.create({ dataDir: memory ? undefined : dataDir, startParams, loadDataDir });
    // A custom setting given with -c at start-up is not kept by PGlite; set for its one session, it lasts as long.
    await pglite.exec(`set ${MATCHING_WORK_MEM.setting} = '${MATCHING_WORK_MEM.embedded}'`);
  } catch (err) {
    await release();
    throw err;
  }
  const db = new Kysely<DB>({ dialect: takingTurns(new PGliteDialect(pglite)) });
  return {
    db,
    kind: 'embedded',
    location: memory ? 'in-memory embedded database' : `embedded database in ${dataDir}`,
    async scriptTransaction(steps) {
      // PGlite's extended protocol takes one statement at a time; exec() runs a whole script. Holding Kysely's
      // single connection keeps every other query out of this transaction.
      await db.connection().execute(async (conn) => {
        await pglite.exec('begin');
        try {
          await steps({ db: conn, exec: async (script) => void (await pglite.exec(script)) });
          await pglite.exec('commit');
        } catch (err) {
          await pglite.exec('rollback');
          throw err;
        }
      });
    },
    runScript: (script) =>
      // Holding Kysely's single connection keeps the script out of any open transaction, and them out of it.
      db.connection().execute(async () => {
        try {
          const results = await pglite.exec(script);
          return { rows: results.at(-1)?.rows ?? [] };
        } catch (err) {
          await pglite.exec('rollback').catch(() => undefined);
          throw err;
        }
      }),
    ping: (timeoutMs) => pingDatabase(db, timeoutMs),
    async listenInProcess(channel, onNotify) {
      // LISTEN and UNLISTEN are statements of the one session: holding Kysely's connection keeps them out of an open
      // transaction, whose rollback would undo them.
      const unlisten = await db.connection().execute(() => pglite.listen(channel, onNotify));
      return () => db.connection().execute(() => unlisten());
    },
    async close() {
      await db.destroy();
      await release();
    },
  };
}

/**
 * PGlite answers within the turn of the event loop that asked, and the dialect hands its one connection to the next
 * waiter in a microtask: under load, queries ran back to back for hundreds of milliseconds while no socket was read
 * or written, and a request that arrived meanwhile waited behind all of them (POST /mandates p99 over a second with
 * a mean of 0.2 s). Handing the connection on in the next turn lets I/O in between.
 */
function takingTurns(dialect: Dialect): Dialect {
  const createDriver = dialect.createDriver.bind(dialect);
  dialect.createDriver = () => {
    const driver = createDriver();
    const release = driver.releaseConnection.bind(driver);
    driver.releaseConnection = (connection) =>
      new Promise((resolve, reject) => setImmediate(() => release(connection).then(resolve, reject)));
    return driver;
  };
  return dialect;
}
