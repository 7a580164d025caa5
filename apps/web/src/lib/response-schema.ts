import { loadResponseSchema, type ResponseSchemaOf, type SchemaName } from './response-schemas';

/**
 * A loader of one of the contract's response schemas, for `api.get(path, { schema })`: the
 * request starts at once, and the schema is awaited only when its answer is there.
 */
export const responseSchema =
  <K extends SchemaName>(name: K) =>
  (): Promise<ResponseSchemaOf<K>> =>
    loadResponseSchema(name);
