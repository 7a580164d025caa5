import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

// the live heap, not its garbage: a collection before each reading, so that when the collector
// last ran (which the load of other tests decides) does not count
setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

/** The heap in use once everything unreachable is collected. */
export function liveHeap() {
  collectGarbage();
  return process.memoryUsage().heapUsed;
}
