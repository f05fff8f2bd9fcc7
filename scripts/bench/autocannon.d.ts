// The part of autocannon 9's programmatic API the benchmarks use (the package ships no types).
declare module 'autocannon' {
  type Histogram = {
    min: number;
    max: number;
    average: number;
    stddev: number;
    total?: number;
    p2_5: number;
    p50: number;
    p75: number;
    p90: number;
    p97_5: number;
    p99: number;
    p99_9: number;
  };

  export type Options = {
    url: string;
    connections?: number;
    duration?: number;
    pipelining?: number;
    timeout?: number;
    headers?: Record<string, string>;
    method?: string;
    body?: string;
    requests?: RequestParams[];
  };

  /** One request of the sequence each connection repeats; setupRequest may rewrite it for every send. */
  export type RequestParams = {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string;
    setupRequest?: (request: RequestParams, context: Record<string, unknown>) => RequestParams;
  };

  export type Result = {
    url: string;
    requests: Histogram;
    latency: Histogram;
    throughput: Histogram;
    duration: number;
    errors: number;
    timeouts: number;
    non2xx: number;
    statusCodeStats: Record<string, { count: number }>;
    start: Date;
    finish: Date;
    connections: number;
  };

  function autocannon(options: Options): Promise<Result>;
  export default autocannon;
}
