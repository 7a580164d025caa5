import { describe, expect, it } from 'vitest';
import { loadConfig } from './config';

const production = {
  NODE_ENV: 'production',
  PUBLIC_URL: 'https://portal.example.in',
  JWT_SECRET: 'j'.repeat(32),
  LINK_SIGNING_SECRET: 'l'.repeat(32),
  DATA_ENCRYPTION_KEY: 'd'.repeat(32),
};

describe('loadConfig', () => {
  it('runs on embedded defaults with nothing set', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      PORT: 3000,
      PUBLIC_URL: 'http://localhost:3000',
      AUTH_PURGE_MINUTES: 60,
    });
    expect(loadConfig({ AUTH_PURGE_MINUTES: '0' }).AUTH_PURGE_MINUTES).toBe(0);
    expect(config.DATABASE_URL).toBeUndefined();
    expect(config.MAIL_URL).toBeUndefined();
  });

  it('names the bad variable in one line', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/^Invalid configuration: PORT /);
    expect(() => loadConfig({ DATABASE_URL: 'mysql://x' })).toThrow(
      /DATABASE_URL must start with postgres/,
    );
    expect(() => loadConfig({ JWT_SECRET: 'short' })).toThrow(/JWT_SECRET must be at least 32/);
  });

  it('requires every secret in production', () => {
    expect(loadConfig(production).NODE_ENV).toBe('production');
    for (const name of Object.keys(production).filter((n) => n !== 'NODE_ENV')) {
      const env: Record<string, string> = { ...production };
      delete env[name];
      expect(() => loadConfig(env)).toThrow(`${name} is required in production`);
    }
  });

  it('requires the provider credentials with a provider URL', () => {
    expect(() => loadConfig({ CONSENT_PROVIDER_URL: 'https://bank.example/aisp' })).toThrow(
      'CONSENT_PROVIDER_CLIENT_ID is required with CONSENT_PROVIDER_URL',
    );
  });

  it('resolves relative paths against the folder npm was run from', () => {
    const config = loadConfig({ INIT_CWD: '/home/operator/portal', DATA_DIR: 'state' });
    expect(config.DATA_DIR).toBe('/home/operator/portal/state');
    expect(config.workingDir).toBe('/home/operator/portal');
  });
});
