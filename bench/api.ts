/**
 * Throughput of one route under load: autocannon keeps `connections` requests in flight for
 * `seconds`, after the same load for `warmUpSeconds`, while the CPU time of the server's process
 * is read before and after from /proc.
 */
import autocannon from 'autocannon';
import { cpuSeconds } from './processes';

export interface LoadSettings {
  connections: number;
  seconds: number;
  /**
   * The same load first, not counted: a fresh process serves its first thousands of requests
   * while V8 still compiles their code, on the cores that serve them, and full pools.
   */
  warmUpSeconds: number;
}

/** A request with no answer by then counts as a timeout, not as a latency. */
export const TIMEOUT_SECONDS = 10;

export interface Throughput {
  requestsPerSecond: number;
  p50Ms: number;
  /** When 1 % of the requests timed out, the timeout: the true p99 is at least that. */
  p99Ms: number;
  /** Milliseconds of the server process's CPU (user + system) per answered request. */
  cpuMsPerRequest: number;
  requests: number;
  timeouts: number;
  /** p99 of the warm-up, to show how far from it the counted figure is. */
  warmUpP99Ms: number;
}

async function run(
  url: string,
  headers: Record<string, string>,
  options: Omit<autocannon.Options, 'url' | 'headers'>,
) {
  const result = await autocannon({ url, headers, timeout: TIMEOUT_SECONDS, ...options });
  // autocannon counts a timeout as an error too
  const errors = result.errors - result.timeouts;
  if (result.non2xx > 0 || errors > 0) {
    throw new Error(`${url}: ${result.non2xx} answers other than 2xx, ${errors} errors`);
  }
  return result;
}

/**
 * `run` against the server with process `pid` for `duration` seconds, and the milliseconds of its
 * CPU per answer. A window that got no answer at all, from a host too busy to serve one in it
 * (the smoke run's windows are a second long), is run again twice as long, up to three times:
 * a figure per answer needs answers.
 */
async function runWithCpu(
  target: { url: string; pid: number; headers?: Record<string, string> },
  options: { connections: number; duration: number },
) {
  for (let tries = 1, duration = options.duration; ; tries += 1, duration *= 2) {
    const cpuBefore = cpuSeconds(target.pid);
    const result = await run(target.url, target.headers ?? {}, { ...options, duration });
    const cpuMs = (cpuSeconds(target.pid) - cpuBefore) * 1000;
    if (result.requests.total > 0 || tries === 3) {
      return { result, cpuMsPerRequest: cpuMs / result.requests.total };
    }
  }
}

export async function measureThroughput(
  target: { url: string; pid: number; headers?: Record<string, string> },
  load: LoadSettings,
): Promise<Throughput> {
  const warmUp = await run(target.url, target.headers ?? {}, {
    connections: load.connections,
    duration: load.warmUpSeconds,
  });
  const { result, cpuMsPerRequest } = await runWithCpu(target, {
    connections: load.connections,
    duration: load.seconds,
  });
  const requests = result.requests.total;
  const timedOut = result.timeouts / (requests + result.timeouts);
  return {
    requestsPerSecond: requests / result.duration,
    p50Ms: timedOut >= 0.5 ? TIMEOUT_SECONDS * 1000 : result.latency.p50,
    p99Ms: timedOut >= 0.01 ? TIMEOUT_SECONDS * 1000 : result.latency.p99,
    cpuMsPerRequest,
    requests,
    timeouts: result.timeouts,
    warmUpP99Ms: warmUp.latency.p99,
  };
}

/**
 * One short turn of `connections` in flight on `url` for `seconds`, with no warm-up, for a server
 * already warm measured against another: its requests a second, and the milliseconds of its
 * process's CPU per answered request.
 */
export async function turnOfLoad(
  target: { url: string; pid: number; headers?: Record<string, string> },
  connections: number,
  seconds: number,
): Promise<{ requestsPerSecond: number; cpuMsPerRequest: number }> {
  const { result, cpuMsPerRequest } = await runWithCpu(target, { connections, duration: seconds });
  return { requestsPerSecond: result.requests.total / result.duration, cpuMsPerRequest };
}
