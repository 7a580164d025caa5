/** The budgets of "Fast at any size", each beside the figure it limits in the report. */
export const BUDGET = {
  /** The portal's consents page against the plainly written peer, same data, same run. */
  minConsentsToPeerRatio: 2,
  /** What the metrics take of the portal's CPU on the consents page, scraped every turn (%). */
  maxMetricsCpuPercent: 3,
  /** Every other screen's read against the peer's consents page, same run (decision 076). */
  minScreenToPeerRatio: 1.5,
  /** At 100 connections, on PostgreSQL: every screen's read. */
  maxP99Ms: 100,
  /** … and the consents page, orders history and the profile in Node's CPU. */
  maxCpuMsPerRequest: 0.5,
  /** The embedded database, one process: the consents page at 100 connections. */
  maxPgliteConsentsP99Ms: 300,
  /** Median server time of each request the web app makes, at a million consents. */
  maxServerTimeMs: 20,
  /** … and at most this many times its time at ten thousand. */
  maxGrowth: 2,
  /** 120 until the sign-in form took react-hook-form's 12 KiB (decision 081). */
  maxLoginFirstLoadGzipKiB: 125,
  /** Settlements that number their invoice, 100 at once on PostgreSQL, signed or not (070). */
  minInvoicesIssuedPerSecond: 100,
  /** Renewal day (084): from the first charge to the last invoice registered and drawn. */
  minRenewalInvoicesPerSecond: 100,
  /** … and until every receipt is mailed and the queue is empty: within the hour. */
  maxRenewalDaySeconds: 3_600,
  lighthouse: {
    minPerformance: 95,
    maxLcpSeconds: 2,
    maxTbtMs: 150,
    maxCls: 0.02,
    minBestPractices: 100,
    minAccessibility: 100,
  },
  entryEncodings: ['br', 'gzip'],
  hashedAssetCacheControl: 'public, max-age=31536000, immutable',
  indexCacheControl: 'no-cache',
} as const;
