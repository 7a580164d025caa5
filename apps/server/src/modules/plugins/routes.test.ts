import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PluginsResponseSchema } from '@portal/contract';
import { createTestApp, type TestApp } from '../../test/app';
import { authHeaders, createCustomer } from '../../test/customers';
import { retirePlugin, uploadPlugin } from './service';
import { seedDemoPlugins } from './seed';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const sha = (data: Buffer) => createHash('sha256').update(data).digest('hex');

async function listFor(customerId: string) {
  const res = await t.app.inject({
    method: 'GET',
    url: '/api/plugins',
    headers: await authHeaders(t, customerId),
  });
  expect(res.statusCode).toBe(200);
  return PluginsResponseSchema.parse(res.json()).plugins;
}

async function publish(platform: string, version: string, content: string) {
  const { plugin } = await uploadPlugin(t.deps, {
    platform,
    version,
    fileName: `setup-${platform.toLowerCase()}-${version}.bin`,
    data: Buffer.from(content),
  });
  return plugin;
}

describe('GET /api/plugins', () => {
  it('needs a signed-in customer', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/plugins' });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ success: false });
  });

  it('lists live installers with size, checksum and a signed link, but not retired ones', async () => {
    const live = await publish('macOS', '1.0.0', 'mac bytes');
    const retired = await publish('macOS', '0.9.0', 'old mac bytes');
    await retirePlugin(t.deps.db, t.clock, retired.id);
    const customer = await createCustomer(t);

    const plugins = await listFor(customer.id);
    const listed = plugins.find((p) => p._id === live.id);
    expect(listed).toMatchObject({
      platform: 'macOS',
      version: '1.0.0',
      fileName: 'setup-macos-1.0.0.bin',
      size: 9,
      sha256: sha(Buffer.from('mac bytes')),
      uploadedDate: t.clock.now().toISOString(),
    });
    expect(listed?.downloadURL).toMatch(
      new RegExp(`^/api/plugins/${live.id}/download\\?expires=\\d+&sub=${customer.id}&sig=`),
    );
    expect(plugins.some((p) => p._id === retired.id)).toBe(false);
  });

  it('lists by platform, newest upload first, with the instant of each upload', async () => {
    const older = await publish('Zeta', '1.0.0', 'z1');
    t.clock.advance(1_234);
    const newer = await publish('Zeta', '0.5.0', 'z0');
    const alpha = await publish('Alpha', '2.0.0', 'a2');
    const customer = await createCustomer(t);

    const ours = new Set([older.id, newer.id, alpha.id]);
    const listed = (await listFor(customer.id)).filter((p) => ours.has(p._id));
    expect(listed.map((p) => [p._id, p.uploadedDate])).toEqual([
      [alpha.id, alpha.uploadedAt.toISOString()],
      [newer.id, newer.uploadedAt.toISOString()],
      [older.id, older.uploadedAt.toISOString()],
    ]);
  });
});

describe('GET /api/plugins/:id/download', () => {
  it('serves the very bytes uploaded, as an attachment, without a bearer token', async () => {
    const plugin = await publish('Windows', '3.0.0', 'windows installer bytes');
    const customer = await createCustomer(t);
    const link = (await listFor(customer.id)).find((p) => p._id === plugin.id)!.downloadURL;

    const res = await t.app.inject({ method: 'GET', url: link });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/octet-stream');
    expect(res.headers['content-disposition']).toBe(
      'attachment; filename="setup-windows-3.0.0.bin"; filename*=UTF-8\'\'setup-windows-3.0.0.bin',
    );
    expect(res.headers['cache-control']).toBe('private, no-store');
    expect(sha(res.rawPayload)).toBe(plugin.sha256);
  });

  it('serves by the listed link for 900 s, and refuses it once it has expired', async () => {
    const plugin = await publish('Windows', '3.0.1', 'bytes');
    const customer = await createCustomer(t);
    const link = (await listFor(customer.id)).find((p) => p._id === plugin.id)!.downloadURL;

    // a second before the 15 minutes are up it still works; a second after, it has expired
    t.clock.advance(899_000);
    expect((await t.app.inject({ method: 'GET', url: link })).statusCode).toBe(200);
    t.clock.advance(2_000);
    const res = await t.app.inject({ method: 'GET', url: link });
    expect(res.statusCode).toBe(410);
    expect(res.json()).toMatchObject({ success: false, message: expect.stringMatching(/expired/) });
  });

  it('refuses a tampered link: other plugin, later expiry, altered signature or none', async () => {
    const plugin = await publish('Windows', '3.0.2', 'bytes a');
    const other = await publish('Windows', '3.0.3', 'bytes b');
    const customer = await createCustomer(t);
    const link = (await listFor(customer.id)).find((p) => p._id === plugin.id)!.downloadURL;
    const url = new URL(link, 'http://x');

    const otherPlugin = link.replace(plugin.id, other.id);
    const later = new URL(url);
    later.searchParams.set('expires', String(Number(url.searchParams.get('expires')) + 3600));
    const badSig = new URL(url);
    badSig.searchParams.set('sig', `${url.searchParams.get('sig')!.slice(0, -2)}AA`);

    for (const tampered of [
      otherPlugin,
      `${later.pathname}${later.search}`,
      `${badSig.pathname}${badSig.search}`,
      url.pathname,
    ]) {
      const res = await t.app.inject({ method: 'GET', url: tampered });
      expect(res.statusCode, tampered).toBe(403);
      expect(res.json()).toEqual({ success: false, message: 'This link is not valid.' });
    }
  });

  it("refuses a customer's link used with another customer's identity", async () => {
    const plugin = await publish('Windows', '3.0.4', 'bytes');
    const owner = await createCustomer(t);
    const intruder = await createCustomer(t);
    const link = (await listFor(owner.id)).find((p) => p._id === plugin.id)!.downloadURL;

    const res = await t.app.inject({ method: 'GET', url: link.replace(owner.id, intruder.id) });
    expect(res.statusCode).toBe(403);
  });

  it('refuses a link of a retired installer and an unknown id with 404, not 500', async () => {
    const plugin = await publish('Windows', '3.0.5', 'bytes');
    const customer = await createCustomer(t);
    const link = (await listFor(customer.id)).find((p) => p._id === plugin.id)!.downloadURL;
    await retirePlugin(t.deps.db, t.clock, plugin.id);

    expect((await t.app.inject({ method: 'GET', url: link })).statusCode).toBe(404);
    const signed = t.deps.signedLinks.sign('/api/plugins/not-a-uuid/download', customer.id, 60);
    expect((await t.app.inject({ method: 'GET', url: signed })).statusCode).toBe(404);
  });
});

describe('uploading installers', () => {
  it('records the checksum, and repeating the same upload changes nothing', async () => {
    const data = Buffer.from('linux bytes');
    const input = { platform: 'Linux', version: '5.0.0', fileName: 'setup.sh', data };
    const first = await uploadPlugin(t.deps, input);
    const again = await uploadPlugin(t.deps, input);
    expect(first.created).toBe(true);
    expect(first.plugin.sha256).toBe(sha(data));
    expect(again).toEqual({ plugin: first.plugin, created: false });
  });

  it('refuses other bytes under a live platform and version, and unsafe file names', async () => {
    await publish('Linux', '5.1.0', 'one');
    await expect(publish('Linux', '5.1.0', 'two')).rejects.toMatchObject({ code: 'CONFLICT' });
    await expect(
      uploadPlugin(t.deps, {
        platform: 'Linux',
        version: '5.2.0',
        fileName: '../etc/passwd',
        data: Buffer.from('x'),
      }),
    ).rejects.toMatchObject({ code: 'BAD_REQUEST' });
  });

  it('seeds a Windows and a Linux installer once', async () => {
    const fresh = await createTestApp();
    try {
      await seedDemoPlugins(fresh.deps);
      await seedDemoPlugins(fresh.deps);
      const customer = await createCustomer(fresh);
      const res = await fresh.app.inject({
        method: 'GET',
        url: '/api/plugins',
        headers: await authHeaders(fresh, customer.id),
      });
      const plugins = PluginsResponseSchema.parse(res.json()).plugins;
      expect(plugins.map((p) => p.platform).sort()).toEqual(['Linux', 'Windows']);
    } finally {
      await fresh.close();
    }
  });
});
