/** The subset of autocannon 8's programmatic API the benchmark uses (the package ships no types). */
declare module 'autocannon' {
  export interface RequestParams {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string | Buffer;
  }

  export interface Request extends RequestParams {
    /** Called before each request is sent; returns the request to send. */
    setupRequest?: (request: RequestParams, context: Record<string, unknown>) => RequestParams;
    onResponse?: (
      status: number,
      body: string,
      context: Record<string, unknown>,
      headers: Record<string, string>,
    ) => void;
  }

  export interface Options {
    url: string;
    connections?: number;
    duration?: number;
    /** Total number of requests; replaces `duration` when set. */
    amount?: number;
    timeout?: number;
    pipelining?: number;
    requests?: Request[];
    headers?: Record<string, string>;
    /** Hand back the raw run (encoded histograms) for `aggregateResult` to merge with others. */
    skipAggregateResult?: boolean;
  }

  /** A run made with `skipAggregateResult`: only to be merged by `aggregateResult`. */
  export interface RawResult {
    totalCompletedRequests: number;
    /** Seconds the run lasted. */
    duration: number;
  }

  export interface Histogram {
    average: number;
    mean: number;
    p50: number;
    p90: number;
    p99: number;
    max: number;
    total: number;
  }

  export interface Result {
    duration: number;
    errors: number;
    timeouts: number;
    non2xx: number;
    resets: number;
    statusCodeStats: Record<string, { count: number }>;
    latency: Histogram;
    requests: Histogram & { sent: number };
  }

  /** A thenable tracker (an EventEmitter with `then`). */
  function autocannon(options: Options & { skipAggregateResult: true }): PromiseLike<RawResult> & { stop(): void };
  function autocannon(options: Options): PromiseLike<Result> & { stop(): void };
  namespace autocannon {
    /** Merges raw runs (their latency histograms, counts and per-second samples) into one result. */
    function aggregateResult(results: RawResult[], options: Pick<Options, 'url' | 'connections'>): Result;
  }
  export default autocannon;
}
