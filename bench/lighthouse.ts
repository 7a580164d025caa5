/**
 * Lighthouse's mobile run (its defaults: a mid-range phone, simulated slow 4G and CPU) on
 * Debian's Chromium, against the production build served by the portal.
 */
import { writeFile } from 'node:fs/promises';
import lighthouse from 'lighthouse';
import puppeteer, { type Page } from 'puppeteer-core';
import { AUTH_STORAGE_KEY } from '@portal/contract';
import type { Session } from './portal';
import { median } from './stats';

const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

export interface PageScores {
  /** Category scores, 0 to 100. */
  performance: number;
  bestPractices: number;
  accessibility: number;
  lcpSeconds: number;
  tbtMs: number;
  cls: number;
  /**
   * Lighthouse's measure of the host's speed at the run's start (higher is faster). Simulated
   * throttling multiplies the host's own task times, so a slower host gives a longer TBT.
   */
  benchmarkIndex: number;
}

/**
 * Puts the session where the web app keeps it: the refresh cookie, and `auth-storage` in
 * localStorage as the session store persists it (version 0).
 */
async function putSession(page: Page, origin: string, session: Session) {
  // an API answer gives the origin its storage without loading (and caching) the app
  await page.goto(`${origin}/api/health`);
  const stored = JSON.stringify({
    state: {
      user: { ...session.user, id: session.userId },
      token: session.token,
      isAuthenticated: true,
      rememberMe: false,
    },
    version: 0,
  });
  await page.evaluate(
    `localStorage.setItem(${JSON.stringify(AUTH_STORAGE_KEY)}, ${JSON.stringify(stored)})`,
  );
  const separator = session.refreshCookie.indexOf('=');
  await page.setCookie({
    url: origin,
    name: session.refreshCookie.slice(0, separator),
    value: session.refreshCookie.slice(separator + 1),
    path: '/',
    httpOnly: true,
    secure: true,
    sameSite: 'Strict',
  });
}

let reportsWritten = 0;

/** Lighthouse's own advice for a trace it failed to record: "Please run Lighthouse again". */
class TraceNotRecorded extends Error {}

/**
 * Each figure's median over `runs` runs of `url`, one after another, with every run's figures:
 * Lighthouse's own advice for simulated throttling, whose single runs of one build swing widely
 * with what else the machine is doing.
 */
export async function medianLighthouseScores(
  url: string,
  runs: number,
  session?: Session,
): Promise<{ median: PageScores; runs: PageScores[] }> {
  const all: PageScores[] = [];
  for (let run = 0; run < runs; run++) all.push(await lighthouseScores(url, session));
  const of = (pick: (scores: PageScores) => number) => median(all.map(pick));
  return {
    median: {
      performance: of((s) => s.performance),
      bestPractices: of((s) => s.bestPractices),
      accessibility: of((s) => s.accessibility),
      lcpSeconds: of((s) => s.lcpSeconds),
      tbtMs: of((s) => s.tbtMs),
      cls: of((s) => s.cls),
      benchmarkIndex: of((s) => s.benchmarkIndex),
    },
    runs: all,
  };
}

/** Scores `url`; with a session, signed in as that customer. A lost trace is measured again once. */
export async function lighthouseScores(url: string, session?: Session): Promise<PageScores> {
  try {
    return await scoreOnce(url, session);
  } catch (error) {
    if (!(error instanceof TraceNotRecorded)) throw error;
    return scoreOnce(url, session);
  }
}

async function scoreOnce(url: string, session?: Session): Promise<PageScores> {
  const browser = await puppeteer.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_FLAGS,
  });
  try {
    const page = await browser.newPage();
    if (session) await putSession(page, new URL(url).origin, session);
    const result = await lighthouse(
      url,
      {
        logLevel: 'error',
        onlyCategories: ['performance', 'best-practices', 'accessibility'],
        // Lighthouse clears the origin's storage first, which would sign the customer out
        disableStorageReset: session !== undefined,
        // samples of the JavaScript stack in the saved trace (slows the page: diagnosis only)
        ...(process.env.LIGHTHOUSE_CPU_PROFILE && {
          additionalTraceCategories: 'disabled-by-default-v8.cpu_profiler',
        }),
      },
      undefined,
      page,
    );
    if (!result) throw new Error(`Lighthouse gave no result for ${url}`);
    // the whole report, for reading which tasks block the main thread; each run its own file
    const reportPrefix = process.env.LIGHTHOUSE_REPORT_FILE;
    if (reportPrefix) {
      const reportFile = `${reportPrefix}-${++reportsWritten}.json`;
      await writeFile(reportFile, JSON.stringify(result.lhr));
      await writeFile(`${reportFile}.trace`, JSON.stringify(result.artifacts.Trace));
    }
    const { categories, audits, runtimeError } = result.lhr;
    if (runtimeError?.code === 'NO_NAVSTART') {
      throw new TraceNotRecorded(`Lighthouse on ${url}: ${runtimeError.message}`);
    }
    if (runtimeError) throw new Error(`Lighthouse on ${url}: ${runtimeError.message}`);
    // a session the app did not take would have measured the sign-in screen instead
    const ended = new URL(result.lhr.finalDisplayedUrl).pathname;
    if (ended !== new URL(url).pathname) throw new Error(`${url} ended at ${ended}`);
    const score = (id: string) => {
      const value = categories[id]?.score;
      if (value === null || value === undefined) throw new Error(`${url}: no ${id} score`);
      return Math.round(value * 100);
    };
    const numeric = (id: string) => {
      const value = audits[id]?.numericValue;
      if (value === undefined) throw new Error(`${url}: no ${id} value`);
      return value;
    };
    return {
      performance: score('performance'),
      bestPractices: score('best-practices'),
      accessibility: score('accessibility'),
      lcpSeconds: numeric('largest-contentful-paint') / 1000,
      tbtMs: numeric('total-blocking-time'),
      cls: numeric('cumulative-layout-shift'),
      benchmarkIndex: result.lhr.environment.benchmarkIndex,
    };
  } finally {
    await browser.close();
  }
}
