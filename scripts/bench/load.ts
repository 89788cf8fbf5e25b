import autocannon from 'autocannon';

/** What one load run measured. */
export interface LoadResult {
  readonly requestsPerSecond: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly non2xx: number;
  readonly errors: number;
  readonly requests: number;
}

/**
 * Drives one URL with autocannon for `seconds`, with the same connection count and pipelining for
 * every server so that the ratios compare like with like.
 */
export async function load(
  url: string,
  headers: Record<string, string>,
  seconds: number,
  connections = 50,
  request: { method?: 'POST' | 'GET'; body?: string } = {},
): Promise<LoadResult> {
  const result = await autocannon({
    url,
    headers,
    duration: seconds,
    connections,
    pipelining: 1,
    ...request,
  });
  return {
    requestsPerSecond: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    requests: result.requests.total,
  };
}
