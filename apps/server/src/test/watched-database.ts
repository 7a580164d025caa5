import type { Database } from '../db/client';

const QUERIES = new Set(['select', 'insert', 'update', 'delete', 'execute', 'transaction']);

/**
 * The app's database, watched: the kind of each query a request starts on it, in order, and a
 * gate that holds every transaction until the test opens it.
 */
export function watchedDatabase(database: Database) {
  const started: string[] = [];
  const transactions: Promise<unknown>[] = [];
  let gate: Promise<void> = Promise.resolve();
  const db = new Proxy(database, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value !== 'function' || !QUERIES.has(String(property))) return value;
      return (...args: unknown[]) => {
        started.push(String(property));
        const run = () => (value as (...a: unknown[]) => unknown).apply(target, args);
        if (property !== 'transaction') return run();
        const transaction = gate.then(run);
        transactions.push(transaction);
        return transaction;
      };
    },
  });
  return {
    db,
    started,
    transactions,
    /** Holds every transaction from now on; the function answered lets them go. */
    closeGate() {
      let open = () => {};
      gate = new Promise((resolve) => {
        open = resolve;
      });
      return open;
    },
  };
}
