import { expect } from 'vitest';
import { createTestApp } from './app';

export interface DocumentedOperation {
  tags: string[];
  summary: string;
  security?: unknown;
  responses: Record<string, unknown>;
  parameters?: unknown;
  requestBody?: { content: Record<string, { schema: { required?: string[] } }> };
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

/** What a client generator reads of one operation, as `expectDocumented` compares it. */
export interface DocumentedAs {
  outline: ReturnType<typeof outline>;
  parameters?: unknown;
  /** the fields its JSON body must carry */
  bodyFields?: string[];
}

/** Checks one operation of the document, `route` written as the app writes it (`:id`). */
export async function expectDocumented(method: string, route: string, expected: DocumentedAs) {
  const paths = await documentedOperations();
  const operation = paths[route.replace(/:(\w+)/g, '{$1}')]?.[method];
  expect(operation, `${method} ${route}`).toBeDefined();
  expect({
    outline: outline(operation!),
    parameters: operation!.parameters,
    bodyFields: operation!.requestBody?.content['application/json']?.schema.required,
  }).toEqual({ parameters: undefined, bodyFields: undefined, ...expected });
}

/** A test that builds an app: the first one migrates its database, near a minute when busy. */
export const BUILDS_AN_APP = 120_000;
