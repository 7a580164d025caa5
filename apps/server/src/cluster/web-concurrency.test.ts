import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../config';

const base = { NODE_ENV: 'test', DATA_DIR: '/tmp/portal-config-test' };

describe('loadConfig: WEB_CONCURRENCY', () => {
  it('runs one worker unless told otherwise', () => {
    expect(loadConfig(base).WEB_CONCURRENCY).toBe(1);
  });

  it('refuses several workers on the embedded database, in one sentence that says what to set', () => {
    const load = () => loadConfig({ ...base, WEB_CONCURRENCY: '2' });
    expect(load).toThrow(ConfigError);
    expect(load).toThrow(
      'Invalid configuration: WEB_CONCURRENCY=2 needs DATABASE_URL (PostgreSQL), since the embedded database can be opened by one process only',
    );
  });

  it('runs several workers on PostgreSQL', () => {
    const config = loadConfig({
      ...base,
      WEB_CONCURRENCY: '4',
      DATABASE_URL: 'postgres://portal:portal@localhost:5432/portal',
    });
    expect(config.WEB_CONCURRENCY).toBe(4);
  });

  it('refuses a count that is not a whole number from 1 to 64', () => {
    for (const value of ['0', '65', '1.5', 'many']) {
      expect(() => loadConfig({ ...base, WEB_CONCURRENCY: value })).toThrow(
        /^Invalid configuration: WEB_CONCURRENCY /,
      );
    }
  });
});
