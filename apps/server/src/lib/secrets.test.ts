import { mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { localSecretsFile, settingOrLocalSecrets } from './secrets';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'secrets-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

it('takes every secret from its setting without reading or writing the data folder', async () => {
  // a data folder that does not exist, as in a container that keeps nothing
  const dataDir = path.join(dir, 'absent');
  const secrets = await settingOrLocalSecrets(dataDir, {
    jwt: 'a'.repeat(32),
    links: 'b'.repeat(32),
  });
  expect(secrets).toEqual({ jwt: 'a'.repeat(32), links: 'b'.repeat(32) });
  expect(await readdir(dir)).toEqual([]);
});

it('generates an unset secret once, keeps it for the user alone, and keeps it across starts', async () => {
  const first = await settingOrLocalSecrets(dir, { jwt: 'a'.repeat(32), links: undefined });
  expect(first.jwt).toBe('a'.repeat(32));
  expect(first.links).toMatch(/^[\w-]{43}$/);
  // only what no setting gives is kept
  expect(JSON.parse(await readFile(localSecretsFile(dir), 'utf8'))).toEqual({ links: first.links });
  expect((await stat(localSecretsFile(dir))).mode & 0o777).toBe(0o600);

  const again = await settingOrLocalSecrets(dir, { jwt: undefined, links: undefined });
  expect(again.links).toBe(first.links);
  expect(again.jwt).toMatch(/^[\w-]{43}$/);
  expect(JSON.parse(await readFile(localSecretsFile(dir), 'utf8'))).toEqual(again);
});

it('prefers the setting to a kept secret, and leaves the file alone when it has every one', async () => {
  await writeFile(localSecretsFile(dir), JSON.stringify({ jwt: 'kept', links: 'kept-too' }));
  const before = (await stat(localSecretsFile(dir))).mtimeMs;
  expect(await settingOrLocalSecrets(dir, { jwt: 'set', links: undefined })).toEqual({
    jwt: 'set',
    links: 'kept-too',
  });
  expect((await stat(localSecretsFile(dir))).mtimeMs).toBe(before);
});

it('stops on a secrets file it cannot read, rather than replacing it', async () => {
  await writeFile(localSecretsFile(dir), '{ not json');
  await expect(settingOrLocalSecrets(dir, { jwt: undefined })).rejects.toThrow(SyntaxError);
  expect(await readFile(localSecretsFile(dir), 'utf8')).toBe('{ not json');
});
