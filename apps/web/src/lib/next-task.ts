/** Settles in a task of its own, so that the browser can paint and handle input in between. */
export const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve));
