/**
 * Throughput of one route under load: autocannon keeps `connections` requests in flight for
 * `seconds`, after a warm-up, while the CPU time of the server's process is read before and
 * after from /proc.
 */
import autocannon from 'autocannon';
import { cpuSeconds } from './processes';

export interface LoadSettings {
  connections: number;
  seconds: number;
  /** Requests sent first and not counted: compiled code paths, warm pools. */
  warmUpRequests: number;
}

export interface Throughput {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** Milliseconds of the server process's CPU (user + system) per answered request. */
  cpuMsPerRequest: number;
  requests: number;
}

async function run(
  url: string,
  headers: Record<string, string>,
  options: Omit<autocannon.Options, 'url' | 'headers'>,
) {
  const result = await autocannon({ url, headers, ...options });
  if (result.non2xx > 0 || result.errors > 0 || result.timeouts > 0) {
    throw new Error(
      `${url}: ${result.non2xx} non-2xx answers, ${result.errors} errors, ${result.timeouts} timeouts`,
    );
  }
  return result;
}

export async function measureThroughput(
  target: { url: string; pid: number; headers?: Record<string, string> },
  load: LoadSettings,
): Promise<Throughput> {
  const headers = target.headers ?? {};
  await run(target.url, headers, {
    connections: Math.min(load.connections, 10),
    amount: load.warmUpRequests,
  });
  const cpuBefore = cpuSeconds(target.pid);
  const result = await run(target.url, headers, {
    connections: load.connections,
    duration: load.seconds,
  });
  const cpu = cpuSeconds(target.pid) - cpuBefore;
  const requests = result.requests.total;
  return {
    requestsPerSecond: requests / result.duration,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    cpuMsPerRequest: (cpu * 1000) / requests,
    requests,
  };
}
