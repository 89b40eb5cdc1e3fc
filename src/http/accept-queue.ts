import { readFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';

/**
 * How many connections the kernel has completed for this listener that the process has not accepted yet, or null
 * where the kernel does not say (not Linux). Read from /proc/net/tcp{,6}: for a listening socket (state 0A) the
 * `rx_queue` column is its accept queue. Node offers no API for it, and libuv may leave connections queued over
 * several turns of a busy event loop (seen: one accept per turn), so nothing in the process can tell instead.
 */
export async function acceptQueueLength(address: AddressInfo | string | null): Promise<number | null> {
  if (!address || typeof address === 'string' || process.platform !== 'linux') return null;
  const port = address.port.toString(16).toUpperCase().padStart(4, '0');
  let found: number | null = null;
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text: string;
    try {
      text = await readFile(table, 'latin1');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      // sl local_address rem_address st tx_queue:rx_queue …
      if (fields[3] !== '0A' || !fields[1]?.endsWith(`:${port}`)) continue;
      found = (found ?? 0) + parseInt(fields[4]!.split(':')[1]!, 16);
    }
  }
  return found;
}
