import { expect } from 'vitest';
import { createTestApp } from './app';

export interface DocumentedOperation {
  tags: string[];
  summary: string;
  security?: unknown;
  responses: Record<string, unknown>;
}

/**
 * The operations of the OpenAPI document the API publishes, as a client generator reads it.
 * The app is built by the calling test, not in a hook: the routes' declarations then count as
 * run by that test, so that mutation testing's per-test coverage runs it against their mutants.
 */
export async function documentedOperations() {
  const t = await createTestApp();
  try {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    return res.json().paths as Record<string, Record<string, DocumentedOperation>>;
  } finally {
    await t.close();
  }
}

/** What a client reads of one operation: its tags, summary, security and answers' statuses. */
export const outline = ({ tags, summary, security, responses }: DocumentedOperation) => ({
  tags,
  summary,
  security,
  statuses: Object.keys(responses).sort(),
});

/** A test that builds an app: the first one migrates its database, near a minute when busy. */
export const BUILDS_AN_APP = 120_000;
