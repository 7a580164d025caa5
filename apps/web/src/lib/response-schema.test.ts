import { describe, expect, it } from 'vitest';
import * as contract from '@portal/contract';
import { responseSchema } from './response-schema';
import { schemaHomes } from './response-schemas';
import profileModuleSource from '@portal/contract/profile?raw';

describe('responseSchema', () => {
  it("loads each named schema from the contract module that holds it, the contract's own object", async () => {
    const names = Object.keys(schemaHomes) as (keyof typeof schemaHomes)[];
    expect(names.length).toBeGreaterThan(30);
    for (const name of names) {
      const schema = await responseSchema(name)();
      expect(schema, name).toBeDefined();
      expect(schema, name).toBe(contract[name]);
    }
  });

  it("checks the dashboard's profile with a contract module that imports zod alone: no request schema is built for it", () => {
    expect(schemaHomes.UserSchema).toBe('profile');
    const imported = [...profileModuleSource.matchAll(/from '([^']+)'/g)].map(([, from]) => from);
    expect(imported).toEqual(['zod']);
  });
});
