// The part of autocannon's programmatic API the benchmark uses (the package ships no types).
declare module 'autocannon' {
  export interface Options {
    url: string;
    connections?: number;
    duration?: number;
    workers?: number;
    headers?: Record<string, string>;
    /** Seconds to wait for an answer before counting a timeout (default 10). */
    timeout?: number;
    /** Requests each connection sends in turn, instead of `url`'s path alone. */
    requests?: Request[];
  }
  /** What a connection keeps between its requests (autocannon's `context`), each caller its own fields. */
  export type Context = Record<string, unknown>;
  /** One request of a connection's turn; `context` is the connection's, emptied when its turn starts again. */
  export interface Request {
    method?: string;
    path: string;
    headers?: Record<string, string>;
    body?: string;
    /** Changes the request before it is sent; answering nothing starts the turn again from the first. */
    setupRequest?: (request: Request, context: Context) => Request | undefined;
    onResponse?: (
      status: number,
      body: string,
      context: Context,
      headers: Record<string, string | string[]>,
    ) => void;
  }
  export interface Histogram {
    average: number;
    p50: number;
    p97_5: number;
    p99: number;
    max: number;
  }
  export interface Result {
    requests: Histogram & { total: number };
    latency: Histogram;
    non2xx: number;
    errors: number;
    timeouts: number;
    /** Requests sent, and answers by status code. */
    statusCodeStats: Record<string, { count: number }>;
  }
  export interface Instance {
    stop(): void;
    on(event: 'reqError', listener: (error: Error) => void): this;
  }
  function autocannon(options: Options): Promise<Result>;
  function autocannon(options: Options, done: (error: Error | null, result: Result) => void): Instance;
  export default autocannon;
}
