/**
 * Where a process spent its time, from the V8 CPU profile that `node --cpu-prof` writes as it
 * exits. A profile's clock is the monotonic clock that `process.hrtime` reads, in microseconds,
 * so a window read in the bench picks out the samples taken in it.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';

export interface CallFrame {
  functionName: string;
  url: string;
}

interface CpuProfile {
  nodes: { id: number; callFrame: CallFrame; children?: number[] }[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

export interface Window {
  from: number;
  to: number;
}

export const monotonicMicroseconds = () => Number(process.hrtime.bigint() / 1000n);

/**
 * The profile of the main thread of the one process that wrote into `dir` (its name ends in the
 * thread's number and a sequence: `.<pid>.0.<n>.cpuprofile`; module loaders' threads write too).
 */
export async function mainThreadProfile(dir: string): Promise<CpuProfile> {
  const names = (await readdir(dir)).filter((name) => /\.\d+\.0\.\d+\.cpuprofile$/.test(name));
  if (names.length !== 1) throw new Error(`${dir}: ${names.length} main-thread profiles, not 1`);
  return JSON.parse(await readFile(path.join(dir, names[0]!), 'utf8')) as CpuProfile;
}

/**
 * Of the samples taken in `window` while the thread was busy (not idle), the share whose stack
 * holds a frame of `owned`: time in that code and in everything it called.
 */
export function shareOfBusyTime(
  profile: CpuProfile,
  window: Window,
  owned: (frame: CallFrame) => boolean,
): { share: number; busySamples: number } {
  const parentOf = new Map<number, number>();
  for (const node of profile.nodes) {
    for (const child of node.children ?? []) parentOf.set(child, node.id);
  }
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const ownedStack = new Map<number, boolean>();
  const isOwned = (id: number): boolean => {
    let answer = ownedStack.get(id);
    if (answer === undefined) {
      const parent = parentOf.get(id);
      answer = owned(nodes.get(id)!.callFrame) || (parent !== undefined && isOwned(parent));
      ownedStack.set(id, answer);
    }
    return answer;
  };
  let time = profile.startTime;
  let busy = 0;
  let inOwned = 0;
  profile.samples.forEach((id, index) => {
    time += profile.timeDeltas[index]!;
    if (time < window.from || time > window.to) return;
    if (nodes.get(id)!.callFrame.functionName === '(idle)') return;
    busy++;
    if (isOwned(id)) inOwned++;
  });
  if (busy === 0) throw new Error('no busy sample in the window');
  return { share: inOwned / busy, busySamples: busy };
}
