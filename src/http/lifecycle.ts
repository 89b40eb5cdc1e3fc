/**
 * Where this instance is in its shutdown. src/shutdown.ts moves it forward, never back; the app reads it.
 * Two steps because a listener closed while connections wait in the kernel's accept queue resets them: first the
 * instance only stops being ready (load balancers stop sending) and accepts what is queued, then it closes.
 */
export interface Lifecycle {
  /** SIGTERM received: GET /readyz answers 503, so load balancers send no new connections. */
  stopping: boolean;
  /** The listener is closed: every response carries `Connection: close`, so keep-alive clients leave. */
  closingConnections: boolean;
}

export const running = (): Lifecycle => ({ stopping: false, closingConnections: false });
