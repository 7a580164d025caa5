// PGlite runs each statement synchronously on the event loop, and hands its one connection to
// the next waiter as soon as a statement ends. Under load, the waiters' statements then run back
// to back, and Node reads some sockets far later than others: at 100 connections, a few requests
// waited 10 s while the median waited 0.2 s. Taking turns in order, one turn per pass of the
// event loop, lets Node read every socket between two statements. Reasons and figures:
// docs/decisions/047-pglite-fair-turns.md
import type { PGlite } from '@electric-sql/pglite';

/** Runs jobs one at a time, in the order they were asked for, each in a later event-loop pass. */
export function createFairTurns() {
  const waiting: (() => Promise<void>)[] = [];
  let busy = false;

  function next() {
    const job = waiting.shift();
    if (!job) {
      busy = false;
      return;
    }
    void job().finally(() => setImmediate(next));
  }

  return function take<T>(job: () => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      waiting.push(() => job().then(resolve, reject));
      if (!busy) {
        busy = true;
        setImmediate(next);
      }
    });
  };
}

type Take = ReturnType<typeof createFairTurns>;
const turnsOf = new WeakMap<PGlite, Take>();

/**
 * Makes every statement and transaction sent to `client` take its turn. A transaction is one
 * turn: its own statements go through its handle, not through these methods.
 */
export function takeTurnsOn(client: PGlite): PGlite {
  const take = createFairTurns();
  turnsOf.set(client, take);
  const query = client.query.bind(client);
  const exec = client.exec.bind(client);
  const transaction = client.transaction.bind(client);
  client.query = (...args) => take(() => query(...args));
  client.exec = (...args) => take(() => exec(...args));
  client.transaction = (...args) => take(() => transaction(...args));
  return client;
}

/** Runs `job`, which speaks to `client` by other means than these methods, in a turn of its own. */
export function inTurnOn<T>(client: PGlite, job: () => Promise<T>): Promise<T> {
  const take = turnsOf.get(client);
  return take ? take(job) : job();
}
