import { randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createS3FileStore } from '../adapters/s3-file-store';
import { plugins } from '../modules/plugins/schema';
import { sha256Hex } from '../modules/plugins/service';
import { createTestApp, type TestApp } from '../test/app';
import { startTestS3, type TestS3 } from '../test/s3';
import { runAdmin } from './test-support';

let t: TestApp;
let s3: TestS3;
beforeAll(async () => {
  t = await createTestApp();
  s3 = await startTestS3();
});
afterAll(async () => {
  await t.close();
  await s3.stop();
});

/** Runs the operator's command line on the test database; answers the exit code and output. */
async function admin(argv: string[], env: Record<string, string> = {}) {
  const { code, out, err } = await runAdmin(t, argv, env);
  return { code, out: out.join('\n'), err: err.join('\n') };
}

let sequence = 0;
/** An installer file on disk, and the options that publish it under a platform of its own. */
async function installer(size = 4_000) {
  sequence += 1;
  const data = randomBytes(size);
  const file = path.join(t.config.DATA_DIR, `setup-${sequence}.exe`);
  await writeFile(file, data);
  const platform = `Windows-${sequence}`;
  return { data, platform, args: ['--platform', platform, '--version', '2.4.1', '--file', file] };
}

const rowsOf = (platform: string) =>
  t.deps.db.select().from(plugins).where(eq(plugins.platform, platform));

describe('plugins:upload', () => {
  it('publishes into the folder under DATA_DIR, where the download link serves it', async () => {
    const { data, platform, args } = await installer();
    const { code, out } = await admin(['plugins:upload', ...args]);
    expect(code).toBe(0);
    const [row] = await rowsOf(platform);
    expect(out).toBe(
      `Published: ${platform} 2.4.1 setup-${sequence}.exe (4,000 B)\n  id:      ${row!.id}\n` +
        `  sha256:  ${row!.sha256}\n  stored:  ${path.join(t.config.DATA_DIR, 'files', row!.fileKey)}`,
    );
    // the test app reads the same folder
    expect(sha256Hex((await t.deps.files.read(row!.fileKey))!)).toBe(sha256Hex(data));

    const again = await admin(['plugins:upload', ...args]);
    expect(again.out).toMatch(/^Already published: /);
    expect(await rowsOf(platform)).toHaveLength(1);
  });

  it('publishes into the S3 bucket that S3_BUCKET names', async () => {
    const { data, platform, args } = await installer(2 * 1024 * 1024);
    const { code, out, err } = await admin(['plugins:upload', ...args], s3.env);
    expect({ code, err }).toEqual({ code: 0, err: '' });
    const [row] = await rowsOf(platform);
    expect(out).toContain(`  stored:  s3://${s3.bucket}/${row!.fileKey}`);
    expect(await s3.keys()).toContain(row!.fileKey);
    const stored = await createS3FileStore(s3.options).read(row!.fileKey);
    expect(sha256Hex(stored!)).toBe(sha256Hex(data));
  });

  it('says the store did not answer and publishes nothing while S3 is down', async () => {
    const { platform, args } = await installer();
    const keysBefore = await s3.keys();
    await s3.down();
    let result;
    try {
      result = await admin(['plugins:upload', ...args], s3.env);
    } finally {
      await s3.up();
    }
    expect(result.code).toBe(1);
    expect(result.err).toMatch(
      /^Error: the file store did not answer \(\S+\); nothing was published$/,
    );
    expect(await rowsOf(platform)).toEqual([]);
    expect(await s3.keys()).toEqual(keysBefore);
  });

  it('refuses a file it cannot read', async () => {
    const missing = path.join(t.config.DATA_DIR, 'no-such-setup.exe');
    const { code, err } = await admin([
      'plugins:upload',
      '--platform',
      'Windows',
      '--version',
      '9.9.9',
      '--file',
      missing,
    ]);
    expect({ code, err }).toEqual({ code: 1, err: `Error: cannot read ${missing}` });
  });
});

describe('plugins:list and plugins:retire', () => {
  it('lists an installer as live, then as retired', async () => {
    const { platform, args } = await installer();
    await admin(['plugins:upload', ...args]);
    const [row] = await rowsOf(platform);
    expect((await admin(['plugins:list'])).out).toContain(
      `${row!.id}  ${platform}  2.4.1  setup-${sequence}.exe  4,000 B  ${row!.sha256}  live`,
    );
    expect((await admin(['plugins:retire', '--id', row!.id])).out).toBe(
      `Retired: ${platform} 2.4.1 setup-${sequence}.exe`,
    );
    expect((await admin(['plugins:list'])).out).toMatch(
      new RegExp(`${row!.id} .* retired \\d{4}-`),
    );
  });
});
