import type * as ResponseSchemas from './response-schemas';

type SchemaName = keyof typeof ResponseSchemas;

/** The response schemas' chunk: fetched once, on the first request that checks an answer. */
export const loadResponseSchemas = () => import('./response-schemas');

/**
 * A loader of one of the contract's response schemas, for `api.get(path, { schema })`: the
 * request starts at once, and the schema is awaited only when its answer is there.
 */
export const responseSchema =
  <K extends SchemaName>(name: K) =>
  async (): Promise<(typeof ResponseSchemas)[K]> =>
    (await loadResponseSchemas())[name];
