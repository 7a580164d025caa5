/** Settles in a task of its own, so that the browser can paint and handle input in between. */
export const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve));

/**
 * Runs each step in a task of its own, in order, without waiting for what a step starts (a
 * request): sending a request costs the main thread a few milliseconds, and several sent in one
 * task make a long one on a phone.
 */
export async function taskByTask(steps: readonly (() => unknown)[]) {
  for (const step of steps) {
    step();
    await nextTask();
  }
}
