import type { IncomingMessage } from 'node:http';

/**
 * Reads and discards what is left of a request body, up to `limitBytes`. True when the body was read to its end:
 * the answer can then go out on a connection the client is no longer writing to, so closing it cannot turn into a
 * TCP reset that loses the answer. A client sending more than the limit, or stalling, is cut off by the limit and
 * by the server's request timeout.
 */
export function drainRequest(raw: IncomingMessage, limitBytes: number): Promise<boolean> {
  if (raw.complete || raw.readableEnded || raw.destroyed) return Promise.resolve(raw.complete);
  return new Promise((resolve) => {
    let received = 0;
    const finish = (drained: boolean) => {
      raw.off('data', onData);
      raw.off('end', onEnd);
      raw.off('error', onError);
      raw.off('close', onError);
      resolve(drained);
    };
    const onData = (chunk: Buffer) => {
      received += chunk.length;
      if (received > limitBytes) finish(false);
    };
    const onEnd = () => finish(true);
    const onError = () => finish(false);
    raw.on('data', onData);
    raw.once('end', onEnd);
    raw.once('error', onError);
    raw.once('close', onError);
    raw.resume();
  });
}
