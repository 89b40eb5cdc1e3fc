import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { connectDatabase } from '../../src/infrastructure/db/connect.js';
import { DataDirectoryInUseError } from '../../src/infrastructure/db/data-dir-lock.js';

const dir = mkdtempSync(join(tmpdir(), 'fx-lock-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the embedded data directory is used by one process at a time', () => {
  it('refuses a second opener with a clear message, and admits one after the first closes', async () => {
    const first = await connectDatabase({ dataDir: dir });
    try {
      const second = connectDatabase({ dataDir: dir });
      await expect(second).rejects.toBeInstanceOf(DataDirectoryInUseError);
      await expect(second).rejects.toThrow(/already in use by another process/);
    } finally {
      await first.close();
    }
    const third = await connectDatabase({ dataDir: dir });
    await third.close();
  }, 120_000);
});
