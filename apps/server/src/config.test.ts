import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseEnv } from 'node:util';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { loadConfig, REPO_ROOT, settingSources, settingWarnings } from './config';
import { production } from './test/production-config';

const without = (env: Record<string, string>, ...names: string[]) =>
  Object.fromEntries(Object.entries(env).filter(([name]) => !names.includes(name)));

const REAL_SERVICES = [
  'PAYMENT_GATEWAY_URL',
  'PAYMENT_GATEWAY_KEY_ID',
  'PAYMENT_GATEWAY_KEY_SECRET',
  'PAYMENT_GATEWAY_WEBHOOK_SECRET',
  'CONSENT_PROVIDER_URL',
  'CONSENT_PROVIDER_CLIENT_ID',
  'CONSENT_PROVIDER_CLIENT_SECRET',
];

describe('loadConfig', () => {
  it('runs on embedded defaults with nothing set: the sandboxes, the demo, no proxy', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      PORT: 3000,
      PUBLIC_URL: 'http://localhost:3000',
      AUTH_PURGE_MINUTES: 60,
      CONSENT_EXPIRY_MINUTES: 15,
      SANDBOX: true,
      SEED_DEMO: true,
      TRUST_PROXY: false,
      PAYMENT_GATEWAY_KEY_ID: 'rzp_test_sandbox',
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
    // the seller's GSTIN is on every invoice: a mistyped one would be printed on all of them
    expect(() => loadConfig({ INVOICE_SUPPLIER_GSTIN: '29AAGCL1234M1Z5' })).toThrow(
      /INVOICE_SUPPLIER_GSTIN must be a GSTIN with its check character/,
    );
    expect(loadConfig({}).INVOICE_SUPPLIER_GSTIN).toBe('29AAGCL1234M1ZA');
  });

  it('requires every secret, the address and the real services in production', () => {
    const config = loadConfig(production);
    expect(config).toMatchObject({ NODE_ENV: 'production', SANDBOX: false, SEED_DEMO: false });
    for (const name of ['JWT_SECRET', 'LINK_SIGNING_SECRET', 'DATA_ENCRYPTION_KEY', 'PUBLIC_URL']) {
      expect(() => loadConfig(without(production, name))).toThrow(
        `Invalid configuration: ${name} is required in production`,
      );
    }
    for (const name of ['PAYMENT_GATEWAY_URL', 'CONSENT_PROVIDER_URL']) {
      expect(() => loadConfig(without(production, name))).toThrow(
        `${name} is required in production, which never runs the sandbox gateway and bank`,
      );
    }
    for (const name of REAL_SERVICES.filter((n) => !n.endsWith('_URL'))) {
      const url = name.startsWith('PAYMENT') ? 'PAYMENT_GATEWAY_URL' : 'CONSENT_PROVIDER_URL';
      expect(() => loadConfig(without(production, name))).toThrow(
        `Invalid configuration: ${name} is required with ${url}`,
      );
    }
  });

  it('refuses a production start on the sandbox with one line naming every missing setting', () => {
    expect(() => loadConfig(without(production, ...REAL_SERVICES))).toThrow(
      new Error(
        'Invalid configuration: PAYMENT_GATEWAY_URL, PAYMENT_GATEWAY_KEY_ID, ' +
          'PAYMENT_GATEWAY_KEY_SECRET, PAYMENT_GATEWAY_WEBHOOK_SECRET, CONSENT_PROVIDER_URL, ' +
          'CONSENT_PROVIDER_CLIENT_ID and CONSENT_PROVIDER_CLIENT_SECRET are required in ' +
          'production, which never runs the sandbox gateway and bank (SANDBOX=on runs them, ' +
          'for a public demo only)',
      ),
    );
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(
      new Error(
        'Invalid configuration: JWT_SECRET, LINK_SIGNING_SECRET, DATA_ENCRYPTION_KEY and ' +
          'PUBLIC_URL are required in production; PAYMENT_GATEWAY_URL, PAYMENT_GATEWAY_KEY_ID, ' +
          'PAYMENT_GATEWAY_KEY_SECRET, PAYMENT_GATEWAY_WEBHOOK_SECRET, CONSENT_PROVIDER_URL, ' +
          'CONSENT_PROVIDER_CLIENT_ID and CONSENT_PROVIDER_CLIENT_SECRET are required in ' +
          'production, which never runs the sandbox gateway and bank (SANDBOX=on runs them, ' +
          'for a public demo only)',
      ),
    );
  });

  it('runs the sandbox in production only when SANDBOX=on asks, and the demo only by SEED_DEMO', () => {
    const demo = loadConfig({ ...without(production, ...REAL_SERVICES), SANDBOX: 'on' });
    expect(demo).toMatchObject({ SANDBOX: true, SEED_DEMO: false });
    expect(loadConfig({ ...production, SEED_DEMO: 'true' }).SEED_DEMO).toBe(true);
    expect(loadConfig({ SEED_DEMO: 'false' }).SEED_DEMO).toBe(false);
    expect(() => loadConfig({ SANDBOX: 'off' })).toThrow(
      'CONSENT_PROVIDER_CLIENT_SECRET are required with SANDBOX=off',
    );
  });

  it('requires the credentials that go with a gateway or provider URL', () => {
    expect(() => loadConfig({ CONSENT_PROVIDER_URL: 'https://bank.example/aisp' })).toThrow(
      'Invalid configuration: CONSENT_PROVIDER_CLIENT_ID and CONSENT_PROVIDER_CLIENT_SECRET are required with CONSENT_PROVIDER_URL',
    );
    expect(() => loadConfig({ PAYMENT_GATEWAY_URL: 'https://api.razorpay.com' })).toThrow(
      'PAYMENT_GATEWAY_KEY_ID, PAYMENT_GATEWAY_KEY_SECRET and PAYMENT_GATEWAY_WEBHOOK_SECRET are required with PAYMENT_GATEWAY_URL',
    );
  });

  it('resolves relative paths against the folder npm was run from', () => {
    const config = loadConfig({ INIT_CWD: '/home/operator/portal', DATA_DIR: 'state' });
    expect(config.DATA_DIR).toBe('/home/operator/portal/state');
    expect(config.workingDir).toBe('/home/operator/portal');
  });
});

describe('TRUST_PROXY', () => {
  it('becomes the list of proxy addresses and CIDRs that Fastify trusts', async () => {
    expect(loadConfig({ TRUST_PROXY: '127.0.0.1' }).TRUST_PROXY).toBe('127.0.0.1');
    expect(loadConfig({ TRUST_PROXY: ' 10.0.0.0/8, ::1 ,loopback' }).TRUST_PROXY).toBe(
      '10.0.0.0/8,::1,loopback',
    );
    expect(loadConfig({ TRUST_PROXY: 'fd00::/8' }).TRUST_PROXY).toBe('fd00::/8');
    for (const accepted of [
      '192.168.1.1/32,10.0.0.0/1',
      'linklocal,uniquelocal',
      '::ffff:10.0.0.1',
    ]) {
      const app = Fastify({ trustProxy: loadConfig({ TRUST_PROXY: accepted }).TRUST_PROXY });
      await app.ready();
      await app.close();
    }
    for (const off of ['', 'false', '0', 'no']) {
      expect(loadConfig({ TRUST_PROXY: off }).TRUST_PROXY).toBe(false);
    }
  });

  it('refuses true and hop counts with one line that says what to set', () => {
    expect(() => loadConfig({ TRUST_PROXY: 'true' })).toThrow(
      new Error(
        'Invalid configuration: TRUST_PROXY must name the proxies to trust, not "true", which ' +
          'lets every client choose its own address: set TRUST_PROXY=127.0.0.1 for a reverse ' +
          'proxy on this machine, or to the addresses or CIDRs of your proxies, comma-separated',
      ),
    );
    expect(() => loadConfig({ TRUST_PROXY: '1' })).toThrow(
      'TRUST_PROXY must name the proxies to trust, not a hop count ("1"), which cannot tell the proxy from a client that connects directly: set TRUST_PROXY=127.0.0.1',
    );
  });

  it('names an entry that is not an address, a CIDR or a range name', () => {
    for (const bad of [
      'proxy.internal',
      '10.0.0.0/33',
      '0.0.0.0/0',
      '::1/129',
      '10.0.0.1/8/8',
      '127.0.0.1,',
    ]) {
      expect(() => loadConfig({ TRUST_PROXY: bad })).toThrow(
        /^Invalid configuration: TRUST_PROXY has ".*", which is not an IP address, a CIDR, loopback, linklocal or uniquelocal$/,
      );
    }
  });
});

describe('starting the server', () => {
  it('stops a production start without a gateway and bank with that one line, exit code 1', () => {
    const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
    const env = without(production, ...REAL_SERVICES);
    const result = spawnSync(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      cwd: serverDir,
      env,
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(result.status).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(
        /^Invalid configuration: PAYMENT_GATEWAY_URL, .* are required in production, which never runs the sandbox gateway and bank \(SANDBOX=on runs them, for a public demo only\)$/,
      ),
    ]);
  });
});

describe('deploy/portal.env.example', () => {
  const example = parseEnv(readFileSync(path.join(REPO_ROOT, 'deploy/portal.env.example'), 'utf8'));
  const placeholders = Object.keys(example).filter((name) => example[name]!.includes('CHANGE_ME'));
  /** Each placeholder as an operator would fill it: a secret of 48 characters, a password. */
  const filled = Object.fromEntries(
    Object.entries(example).map(([name, value]) => [
      name,
      (value ?? '').replace(/CHANGE_ME_*/, 'x'.repeat(48)),
    ]),
  );

  it("loads through the portal's own settings once its placeholders are filled", () => {
    expect(placeholders).toEqual(
      expect.arrayContaining(['JWT_SECRET', 'DATABASE_URL', 'PAYMENT_GATEWAY_KEY_SECRET']),
    );
    const config = loadConfig(filled);
    expect(config).toMatchObject({
      NODE_ENV: 'production',
      SANDBOX: false,
      SEED_DEMO: false,
      INVOICE_SUPPLIER_GSTIN: example.INVOICE_SUPPLIER_GSTIN,
      TRUST_PROXY: '127.0.0.1',
      DATA_DIR: '/var/lib/portal',
    });
    // every setting it names is one the portal reads, spelled as the portal spells it (the AWS
    // SDK's own switch apart)
    const [given] = settingSources(config, filled);
    expect(
      given!
        .replace(/^Settings from the environment: (.*)\.$/, '$1')
        .split(', ')
        .sort(),
    ).toEqual(
      Object.keys(example)
        .filter((name) => name !== 'AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED')
        .sort(),
    );
  });

  it('is refused while a placeholder is left, saying which', () => {
    let message = '';
    try {
      loadConfig(example);
    } catch (error) {
      message = (error as Error).message;
    }
    const named =
      /^Invalid configuration: (.*) still hold the example's placeholder CHANGE_ME$/.exec(message);
    expect(named, message).not.toBeNull();
    expect(named![1]!.split(/, | and /).sort()).toEqual([...placeholders].sort());
    expect(() => loadConfig({ ...filled, S3_ACCESS_KEY_ID: 'CHANGE_ME' })).toThrow(
      "Invalid configuration: S3_ACCESS_KEY_ID still holds the example's placeholder CHANGE_ME",
    );
  });
});

describe('settingSources', () => {
  it('names the settings given, never their values, and the secrets kept in DATA_DIR', () => {
    const config = loadConfig(production);
    const env = { ...production, UNRELATED: 'x' };
    const [given, ...rest] = settingSources(config, env);
    expect(
      given!
        .replace(/^Settings from the environment: (.*)\.$/, '$1')
        .split(', ')
        .sort(),
    ).toEqual(Object.keys(production).sort());
    expect(rest).toEqual([
      'No secret is kept in DATA_DIR: every one comes from the environment.',
      expect.stringMatching(/^Every other setting has its default \(\d+ of \d+\)\.$/),
    ]);
    const embedded = loadConfig({ DATA_DIR: '/srv/portal' });
    expect(settingSources(embedded, { DATA_DIR: '/srv/portal' }).slice(0, 2)).toEqual([
      'Settings from the environment: DATA_DIR.',
      "Secrets kept in /srv/portal/secrets.json: JWT_SECRET, LINK_SIGNING_SECRET, DATA_ENCRYPTION_KEY, PAYMENT_GATEWAY_KEY_SECRET, PAYMENT_GATEWAY_WEBHOOK_SECRET, the sandbox bank's client secret, the sandbox IRP's client secret and password.",
    ]);
  });
});

describe('the grievance officer', () => {
  it('is named by configuration, its absence in production warned of, and answers within 1 to 90 days', () => {
    expect(loadConfig({}).GRIEVANCE_RESPONSE_DAYS).toBe(30);
    expect(loadConfig({ GRIEVANCE_RESPONSE_DAYS: '15' }).GRIEVANCE_RESPONSE_DAYS).toBe(15);
    for (const days of ['0', '91', 'soon']) {
      expect(() => loadConfig({ GRIEVANCE_RESPONSE_DAYS: days })).toThrow(
        /^Invalid configuration: GRIEVANCE_RESPONSE_DAYS /,
      );
    }
    expect(() => loadConfig({ GRIEVANCE_OFFICER_EMAIL: 'the officer' })).toThrow(
      /^Invalid configuration: GRIEVANCE_OFFICER_EMAIL /,
    );
    expect(
      settingWarnings(loadConfig({ ...production, OPERATOR_EMAIL: 'ops@example.in' })),
    ).toEqual([
      'WARNING: GRIEVANCE_OFFICER_EMAIL is not set: the Privacy page names a placeholder grievance officer, and grievances are mailed to OPERATOR_EMAIL alone.',
    ]);
  });
});

describe('OPERATOR_EMAIL', () => {
  it('is optional, an address when set, and its absence in production is warned of at start', () => {
    expect(loadConfig({}).OPERATOR_EMAIL).toBeUndefined();
    expect(loadConfig({ OPERATOR_EMAIL: 'ops@example.in' }).OPERATOR_EMAIL).toBe('ops@example.in');
    expect(() => loadConfig({ OPERATOR_EMAIL: 'ops team' })).toThrow(
      /^Invalid configuration: OPERATOR_EMAIL /,
    );
    const officer = { GRIEVANCE_OFFICER_EMAIL: 'grievance@example.in' };
    expect(settingWarnings(loadConfig({ ...production, ...officer }))).toEqual([
      'WARNING: OPERATOR_EMAIL is not set: jobs that fail every try (mail not delivered, say) are mailed to nobody, and only the PortalDeadLetters alert tells of them.',
    ]);
    expect(
      settingWarnings(loadConfig({ ...production, ...officer, OPERATOR_EMAIL: 'ops@example.in' })),
    ).toEqual([]);
    // outside production nobody is expected to watch the dead letters
    expect(settingWarnings(loadConfig({}))).toEqual([]);
  });
});
