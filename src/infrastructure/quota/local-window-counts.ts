/**
 * Fixed-window request counts held in this process, one window per key: a new window replaces the last, so the map
 * never outgrows the partners. The embedded database's quota store, and the shared store's fallback while
 * PostgreSQL or Redis cannot be reached.
 */
export class LocalWindowCounts {
  private readonly windows = new Map<string, { start: number; count: number }>();

  /** Counts one request of `key` in the window starting at `windowStart`; returns the window's count. */
  add(key: string, windowStart: number): number {
    let window = this.windows.get(key);
    if (window?.start !== windowStart) {
      window = { start: windowStart, count: 0 };
      this.windows.set(key, window);
    }
    window.count += 1;
    return window.count;
  }

  clear(): void {
    this.windows.clear();
  }
}
