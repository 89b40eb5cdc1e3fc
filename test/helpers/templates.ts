import { readFile } from 'node:fs/promises';
import { inject } from 'vitest';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A migrated embedded data directory (PGlite's dump), or null when the suite runs on PostgreSQL. */
    embeddedTemplatePath: string | null;
    /** A migrated database on TEST_DATABASE_URL's server, or null when the suite runs embedded. */
    postgresTemplateName: string | null;
  }
}

let template: Promise<Blob | undefined> | undefined;

/** The embedded template of this run, read once per test process (undefined on PostgreSQL). */
export function embeddedTemplate(): Promise<Blob | undefined> {
  template ??= (async () => {
    const path = inject('embeddedTemplatePath');
    return path ? new Blob([await readFile(path)]) : undefined;
  })();
  return template;
}

/** The PostgreSQL template database of this run (undefined when the suite runs embedded). */
export function postgresTemplate(): string | undefined {
  return inject('postgresTemplateName') ?? undefined;
}
