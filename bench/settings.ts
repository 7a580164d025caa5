/** A run's sizes and durations: the whole bench, or the smoke run's tiny ones. */
import type { LoadSettings } from './api';
import type { Report } from './report';
import type { ScaleSettings } from './scale';
import type { SeedPlan, Volume } from './seed';

export interface Settings {
  seed: SeedPlan & { measured: { small: Volume; large: Volume } };
  load: LoadSettings;
  /** The metrics' cost: pairs of turns, one on each portal; the profiled portal's load. */
  metricsCost: { pairs: number; turnSeconds: number; profileSeconds: number };
  scale: ScaleSettings;
  /** Invoices issued at once in each issuing run, and how long their drawing may take. */
  issuing: { invoices: number; drawTimeoutSeconds: number };
  /** Renewal day: subscriptions charged, charge calls at once, and how long it may all take. */
  renewal: { subscriptions: number; concurrency: number; timeoutSeconds: number };
  lighthousePaths: string[];
  /** Lighthouse runs a page; each figure is their median. */
  lighthouseRuns: number;
}

export const FULL: Settings = {
  seed: {
    measured: {
      small: { consents: 10_000, orders: 1_000 },
      large: { consents: 1_000_000, orders: 100_000 },
    },
    others: { customers: 1_000, consents: 20, orders: 5 },
  },
  load: { connections: 100, seconds: 10, warmUpSeconds: 5 },
  metricsCost: { pairs: 16, turnSeconds: 2, profileSeconds: 20 },
  scale: { requests: 30, maxSeconds: 20, timeoutSeconds: 60 },
  issuing: { invoices: 2_000, drawTimeoutSeconds: 600 },
  renewal: { subscriptions: 10_000, concurrency: 50, timeoutSeconds: 3_600 },
  lighthousePaths: ['/login', '/dashboard'],
  lighthouseRuns: 5,
};

/** Every part, at sizes that only show that each figure comes out; /login alone in Lighthouse. */
export const SMOKE: Settings = {
  seed: {
    measured: {
      small: { consents: 100, orders: 10 },
      large: { consents: 1_000, orders: 100 },
    },
    others: { customers: 10, consents: 5, orders: 2 },
  },
  load: { connections: 10, seconds: 1, warmUpSeconds: 1 },
  metricsCost: { pairs: 2, turnSeconds: 1, profileSeconds: 1 },
  scale: { requests: 5, maxSeconds: 2, timeoutSeconds: 30 },
  issuing: { invoices: 20, drawTimeoutSeconds: 60 },
  // few and gently: the smoke shares the machine with the mutation window, and checks only
  // that every figure is measured and every charge counted once
  renewal: { subscriptions: 10, concurrency: 2, timeoutSeconds: 300 },
  lighthousePaths: ['/login'],
  lighthouseRuns: 1,
};

/** The full load on the API, with the large customer no larger than the one measured. */
export const API_ONLY: Settings = {
  ...FULL,
  seed: { ...FULL.seed, measured: { ...FULL.seed.measured, large: FULL.seed.measured.small } },
};

/** What every part of a run reads: its sizes, the table it adds its rows to, its PostgreSQL. */
export interface BenchRun {
  settings: Settings;
  report: Report;
  /** The PostgreSQL server the run's database is made on. */
  serverUrl: string;
  /** Only the API on PostgreSQL is measured (`--api`). */
  apiOnly?: boolean;
}
