import { describe, expect, it } from 'vitest';
import { isUuid } from './uuid';

describe('isUuid', () => {
  it('takes an id in either case', () => {
    expect(isUuid('4fa65d2e-1c3b-4a7d-8e9f-0a1b2c3d4e5f')).toBe(true);
    expect(isUuid('4FA65D2E-1C3B-4A7D-8E9F-0A1B2C3D4E5F')).toBe(true);
  });

  it('refuses anything else, whole: no text around it, no group short or long, no other letter', () => {
    for (const value of [
      '',
      'x4fa65d2e-1c3b-4a7d-8e9f-0a1b2c3d4e5f',
      '4fa65d2e-1c3b-4a7d-8e9f-0a1b2c3d4e5fx',
      '4fa65d2-1c3b-4a7d-8e9f-0a1b2c3d4e5f',
      '4fa65d2e-1c3-4a7d-8e9f-0a1b2c3d4e5f',
      '4fa65d2e-1c3b-4a7-8e9f-0a1b2c3d4e5f',
      '4fa65d2e-1c3b-4a7d-8e9-0a1b2c3d4e5f',
      '4fa65d2e-1c3b-4a7d-8e9f-0a1b2c3d4e5',
      '4fa65d2e1c3b4a7d8e9f0a1b2c3d4e5f',
      '4fa65d2g-1c3b-4a7d-8e9f-0a1b2c3d4e5f',
      '4fa65d2e-1c3b-4a7d-8e9f-0a1b2c3d4e5f\n',
    ]) {
      expect(isUuid(value), JSON.stringify(value)).toBe(false);
    }
  });
});
