import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { get, type IncomingMessage } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLUGIN_LINK_TTL_SECONDS, pluginDownloadPath } from '@portal/contract';
import { plugins } from '../modules/plugins/schema';
import { sha256Hex as sha, uploadPlugin } from '../modules/plugins/service';
import { buyer } from '../test/payments';
import { invoices } from '../modules/invoices/schema';
import { createTestApp, type TestApp } from '../test/app';
import { startTestS3, type TestS3 } from '../test/s3';
import { FILE_STORE_UNAVAILABLE_MESSAGE } from './file-store';
import { createS3FileStore } from './s3-file-store';

// a full collection before each measure, so that only what is still held is counted
setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

/**
 * Bytes this process holds in Buffers, garbage left out: the least of ten measures over a second,
 * as other work in the process (the S3 server, the database driver) only adds passing peaks.
 */
async function heldBuffers() {
  let least = Infinity;
  for (let i = 0; i < 10; i++) {
    collectGarbage();
    least = Math.min(least, process.memoryUsage().arrayBuffers);
    await sleep(100);
  }
  return least;
}

let s3: TestS3;
let t: TestApp;
beforeAll(async () => {
  s3 = await startTestS3();
  t = await createTestApp({ deps: { files: createS3FileStore(s3.options) } });
});
afterAll(async () => {
  await t.close();
  await s3.stop();
});

async function publish(data: Buffer) {
  const { plugin } = await uploadPlugin(t.deps, {
    platform: `Windows-${randomUUID().slice(0, 8)}`,
    version: '1.0.0',
    fileName: 'setup.exe',
    data,
  });
  const link = t.deps.signedLinks.sign(
    pluginDownloadPath(plugin.id),
    randomUUID(),
    PLUGIN_LINK_TTL_SECONDS,
  );
  return { plugin, link };
}

describe('GET /api/plugins/:id/download from an S3 bucket', () => {
  it('serves the very bytes uploaded, with their size', async () => {
    const data = randomBytes(200_000);
    const { link } = await publish(data);
    const res = await t.app.inject({ method: 'GET', url: link });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-length']).toBe(String(data.length));
    expect(res.headers['content-type']).toBe('application/octet-stream');
    expect(sha(res.rawPayload)).toBe(sha(data));
  });

  it('streams a 30 MB installer: while the browser reads nothing, the portal holds no more than a few chunks', async () => {
    const data = randomBytes(30 * 1024 * 1024);
    const { link } = await publish(data);
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const before = await heldBuffers();

    const res = await new Promise<IncomingMessage>((resolve, reject) =>
      get(`${address}${link}`, resolve).on('error', reject),
    );
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-length']).toBe(String(data.length));
    const hash = createHash('sha256');
    const firstChunk = await new Promise<Buffer>((resolve) => res.once('data', resolve));
    hash.update(firstChunk);
    res.pause();
    // the rest waits in S3 and in socket buffers, outside this process's memory
    expect((await heldBuffers()) - before).toBeLessThan(4 * 1024 * 1024);

    let received = firstChunk.length;
    res.on('data', (chunk: Buffer) => {
      received += chunk.length;
      hash.update(chunk);
    });
    res.resume();
    await new Promise((resolve) => res.on('end', resolve));
    expect(received).toBe(data.length);
    expect(hash.digest('hex')).toBe(sha(data));
  });

  it('answers 404, not 500, when the installer is missing from the bucket', async () => {
    const { plugin, link } = await publish(Buffer.from('soon gone'));
    await t.deps.files.remove(plugin.fileKey);
    const res = await t.app.inject({ method: 'GET', url: link });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ success: false, message: 'Plugin file not found' });
  });

  it('answers 503 with Retry-After while S3 is down, and serves the file again once it is back', async () => {
    const { link } = await publish(Buffer.from('kept through the outage'));
    await s3.down();
    try {
      const res = await t.app.inject({ method: 'GET', url: link });
      expect(res.statusCode).toBe(503);
      expect(res.headers['retry-after']).toBe('5');
      expect(res.json()).toEqual({ success: false, message: FILE_STORE_UNAVAILABLE_MESSAGE });
    } finally {
      await s3.up();
    }
    const res = await t.app.inject({ method: 'GET', url: link });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('kept through the outage');
  });

  it('records no installer and stores no bytes when S3 is down during an upload', async () => {
    const platform = `Linux-${randomUUID().slice(0, 8)}`;
    await s3.down();
    try {
      await expect(
        uploadPlugin(t.deps, {
          platform,
          version: '2.0.0',
          fileName: 'setup.sh',
          data: Buffer.from('never stored'),
        }),
      ).rejects.toThrow(FILE_STORE_UNAVAILABLE_MESSAGE);
    } finally {
      await s3.up();
    }
    expect(await t.deps.db.select().from(plugins).where(eq(plugins.platform, platform))).toEqual(
      [],
    );
    expect(await s3.keys()).not.toContainEqual(expect.stringMatching(/setup\.sh$/));
  });
});

describe('GET /api/orders/:id/receipt from an S3 bucket', () => {
  it('keeps the GST invoice in the bucket and serves it by the signed link', async () => {
    const b = await buyer(t);
    const orderId = await b.order();
    const { checkoutPath } = await b.pay(orderId);
    await b.checkout(checkoutPath, 'pay');
    await t.drawDocuments();
    const [receipt] = await t.deps.db.select().from(invoices).where(eq(invoices.orderId, orderId));
    const stored = await createS3FileStore(s3.options).read(receipt!.fileKey);
    expect(stored?.subarray(0, 5).toString()).toBe('%PDF-');

    const url = (await b.history())[0]!.receiptUrl!;
    const res = await t.app.inject({ method: 'GET', url });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-length']).toBe(String(stored!.length));
    expect(res.rawPayload).toEqual(stored);

    await s3.down();
    try {
      const down = await t.app.inject({ method: 'GET', url });
      expect(down.statusCode).toBe(503);
      expect(down.json()).toEqual({ success: false, message: FILE_STORE_UNAVAILABLE_MESSAGE });
    } finally {
      await s3.up();
    }

    await t.deps.files.remove(receipt!.fileKey);
    const missing = await t.app.inject({ method: 'GET', url });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({
      success: false,
      message: 'Receipt not available for this order.',
    });
  });
});
