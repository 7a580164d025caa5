import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { chmod, chown, mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseEnv } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { REPO_ROOT } from '../config';
import { CODE_MAIL_SUBJECT } from '../modules/auth/mails';
import { freePort, postgresTestServerUrl } from '../test/database';
import { codeFrom } from '../test/mail';
import { startTestS3, type TestS3 } from '../test/s3';
import { createSmtpProcess, type SmtpProcess } from '../test/smtp';
import { createPostgresDatabase, waitUntilReady } from './processes';

/**
 * The production start of deploy/Dockerfile, without a container daemon: its CMD in its working
 * directory (the repository), its ENV, deploy/portal.env.example with each placeholder filled,
 * as an unprivileged user, in a data folder made as its RUN line makes it; PostgreSQL, an S3
 * bucket (s3rver) and SMTP (smtp-server), each a real process. With every secret set, the start
 * keeps nothing in the data folder, and says where its settings came from without a value.
 */
const DOCKERFILE = readFileSync(path.join(REPO_ROOT, 'deploy/Dockerfile'), 'utf8');
const EXAMPLE = readFileSync(path.join(REPO_ROOT, 'deploy/portal.env.example'), 'utf8');

/** The value of each instruction of the Dockerfile, by name, in order. */
const instructions = (name: string) =>
  [...DOCKERFILE.matchAll(new RegExp(`^${name}\\s+(.+)$`, 'gm'))].map((match) => match[1]!);

const secret = () => randomBytes(36).toString('base64url');
const SECRETS = {
  JWT_SECRET: secret(),
  LINK_SIGNING_SECRET: secret(),
  DATA_ENCRYPTION_KEY: secret(),
  PAYMENT_GATEWAY_KEY_SECRET: secret(),
  PAYMENT_GATEWAY_WEBHOOK_SECRET: secret(),
  CONSENT_PROVIDER_CLIENT_SECRET: secret(),
  METRICS_TOKEN: secret(),
};
const CUSTOMER = {
  email: 'recipe@acme.example',
  mobile: '9876500001',
  gstNo: '27AAPFU0939F1ZV',
  tally_serialno: '712300001',
  password: `Recipe@${randomBytes(6).toString('hex')}`,
};

const current = () => ({ uid: process.getuid!(), gid: process.getgid!() });

/**
 * The unprivileged user the portal runs as: the image's `node`, here `nobody`. A checkout that
 * `nobody` cannot read (under a home folder of mode 700) runs as the user of the test instead,
 * and says so: the data folder's checks stand either way.
 */
function unprivileged() {
  if (process.getuid?.() !== 0) return current();
  const id = (flag: string) => Number(execFileSync('id', [flag, 'nobody'], { encoding: 'utf8' }));
  const nobody = { uid: id('-u'), gid: id('-g') };
  try {
    execFileSync(
      process.execPath,
      ['-e', `require('fs').accessSync(${JSON.stringify(REPO_ROOT)})`],
      nobody,
    );
    return nobody;
  } catch {
    console.warn(
      `${REPO_ROOT} cannot be read by nobody: the recipe runs as uid ${process.getuid!()}`,
    );
    return current();
  }
}

let dataDir: string;
let s3: TestS3;
let smtp: SmtpProcess;
let database: Awaited<ReturnType<typeof createPostgresDatabase>>;
let env: Record<string, string>;
let output = '';
let stop: () => Promise<void>;
let url: string;
let metricsUrl: string;
const user = unprivileged();

/** Runs a command of the image as its user, with its settings, and answers what it printed. */
function runAsThePortal(argv: string[]) {
  const [command, ...args] = argv;
  return spawn(command === 'node' ? process.execPath : command!, args, {
    cwd: REPO_ROOT,
    env,
    uid: user.uid,
    gid: user.gid,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

beforeAll(async () => {
  expect(instructions('USER')).toEqual(['node']);
  const imageEnv = parseEnv(
    instructions('ENV')
      .join('\n')
      .replaceAll(/\s+(?=\w+=)/g, '\n'),
  );
  // the recipe makes the data folder, owned by the portal's user, for it alone
  expect(DOCKERFILE).toMatch(
    new RegExp(
      `mkdir -p ${imageEnv.DATA_DIR} && chown node:node ${imageEnv.DATA_DIR} && chmod 700 ${imageEnv.DATA_DIR}`,
    ),
  );
  dataDir = await mkdtemp(path.join(tmpdir(), 'portal-recipe-'));
  await chown(dataDir, user.uid, user.gid);
  await chmod(dataDir, 0o700);

  database = await createPostgresDatabase(postgresTestServerUrl());
  s3 = await startTestS3();
  smtp = await createSmtpProcess();
  await smtp.start();
  const port = await freePort();
  url = `http://127.0.0.1:${port}`;
  const metricsPort = await freePort();
  metricsUrl = `http://127.0.0.1:${metricsPort}/metrics`;
  const example = parseEnv(EXAMPLE);
  const filled = Object.fromEntries(
    Object.entries(example).map(([name, value]) => [
      name,
      value?.includes('CHANGE_ME') ? `example-${name.toLowerCase()}` : (value ?? ''),
    ]),
  );
  env = {
    PATH: '/usr/local/bin:/usr/bin:/bin',
    ...imageEnv,
    ...filled,
    ...SECRETS,
    // where this test's services are, as the operator would write them in portal.env
    HOST: '127.0.0.1',
    PORT: String(port),
    METRICS_PORT: String(metricsPort),
    PUBLIC_URL: url,
    DATA_DIR: dataDir,
    DATABASE_URL: database.url,
    MAIL_URL: smtp.url,
    ...s3.env,
    // real services that nothing in this test calls
    PAYMENT_GATEWAY_URL: 'http://127.0.0.1:9/razorpay',
    CONSENT_PROVIDER_URL: 'http://127.0.0.1:9/bank',
    WEB_DIST_DIR: path.join(REPO_ROOT, 'apps/web/dist'),
  };

  const cmd = JSON.parse(instructions('CMD')[0]!) as string[];
  const child = runAsThePortal(cmd);
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  stop = async () => {
    if (child.exitCode === null) child.kill('SIGTERM');
    await exited;
  };
  await waitUntilReady(url, exited, 90_000).catch((error: Error) => {
    throw new Error(`${error.message}\n--- its output ---\n${output}`);
  });
}, 180_000);

afterAll(async () => {
  await stop?.();
  await database?.drop();
  await s3?.stop();
  await smtp?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

it('starts as an unprivileged user, keeps nothing in its data folder and names its settings, not their values', async () => {
  expect((await stat(dataDir)).uid).toBe(user.uid);
  expect(await readdir(dataDir)).toEqual([]);
  expect(output).toContain('No secret is kept in DATA_DIR: every one comes from the environment.');
  const from = output.split('\n').find((line) => line.startsWith('Settings from the environment:'));
  for (const name of [
    'NODE_ENV',
    'DATABASE_URL',
    'MAIL_URL',
    'S3_BUCKET',
    ...Object.keys(SECRETS),
  ]) {
    expect(from).toContain(name);
  }
  for (const value of [...Object.values(SECRETS), database.url, s3.env.S3_SECRET_ACCESS_KEY!]) {
    expect(output).not.toContain(value);
  }
});

it('signs a customer made by the command line in, with the code sent over SMTP', async () => {
  const made = runAsThePortal([
    'node',
    '--import',
    'tsx',
    'apps/server/src/cli/index.ts',
    'customers:create',
    `--email=${CUSTOMER.email}`,
    `--mobile=${CUSTOMER.mobile}`,
    `--gst-no=${CUSTOMER.gstNo}`,
    `--tally-serial=${CUSTOMER.tally_serialno}`,
    '--company=Recipe Traders',
    `--password=${CUSTOMER.password}`,
  ]);
  let printed = '';
  made.stdout!.on('data', (chunk: Buffer) => (printed += chunk.toString()));
  made.stderr!.on('data', (chunk: Buffer) => (printed += chunk.toString()));
  const code = await new Promise((resolve) => made.once('exit', resolve));
  expect(code, printed).toBe(0);

  const login = await fetch(`${url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(CUSTOMER),
  });
  expect(login.status).toBe(200);
  const { tempToken } = (await login.json()) as { tempToken: string };
  await expect
    .poll(async () => (await smtp.received()).filter((m) => m.to === CUSTOMER.email).length, {
      timeout: 20_000,
    })
    .toBe(1);
  const mail = (await smtp.received()).find((m) => m.to === CUSTOMER.email)!;
  expect(mail.subject).toBe(CODE_MAIL_SUBJECT);
  const verify = await fetch(`${url}/api/auth/verify-2fa`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ tempToken, verificationCode: codeFrom(mail) }),
  });
  expect(verify.status).toBe(200);
  // still nothing kept locally, the command line's start included
  expect(await readdir(dataDir)).toEqual([]);
});

it('serves its metrics on their own port, to the token alone, with its workers running', async () => {
  expect((await fetch(metricsUrl)).status).toBe(401);
  const res = await fetch(metricsUrl, {
    headers: { authorization: `Bearer ${SECRETS.METRICS_TOKEN}` },
  });
  expect(res.status).toBe(200);
  const text = await res.text();
  for (const check of ['database', 'files', 'queue', 'workers']) {
    expect(text).toContain(`portal_ready{check="${check}"} 1`);
  }
  expect(text).toContain('process_resident_memory_bytes');
  // the public port has no metrics: a 404, or the app's page where the app is built
  expect(await (await fetch(`${url}/metrics`)).text()).not.toContain('portal_ready');
});
