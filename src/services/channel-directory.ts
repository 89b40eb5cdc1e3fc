import type { Kysely } from 'kysely';
import type { DB } from '../infrastructure/db/schema.js';
import { listChannels } from '../infrastructure/repositories/channels.js';

/** The channel names operators have loaded, cached briefly: they change rarely and are read on every request. */
export class ChannelDirectory {
  private cached: { names: string[]; at: number } | null = null;

  constructor(
    private readonly load: () => Promise<string[]>,
    private readonly ttlMs = 30_000,
  ) {}

  async list(): Promise<string[]> {
    const now = Date.now();
    if (!this.cached || now - this.cached.at > this.ttlMs) this.cached = { names: await this.load(), at: now };
    return this.cached.names;
  }
}

/** The directory of the channels stored in `db`. */
export const channelDirectoryOn = (db: Kysely<DB>) => new ChannelDirectory(() => listChannels(db));
