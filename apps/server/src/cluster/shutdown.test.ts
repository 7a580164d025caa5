import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ACCOUNT } from '../demo/seed';
import { freePort, postgresTestServerUrl } from '../test/database';
import { createPostgresDatabase, startPortal, stopPortal, type PortalProcess } from './processes';

let dataDir: string;
let database: Awaited<ReturnType<typeof createPostgresDatabase>> | undefined;
let portal: PortalProcess | undefined;
let port: number;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'portal-shutdown-'));
  const serverUrl = postgresTestServerUrl();
  database = serverUrl ? await createPostgresDatabase(serverUrl) : undefined;
  port = await freePort();
  portal = await startPortal(port, {
    DATA_DIR: dataDir,
    WEB_DIST_DIR: path.join(dataDir, 'no-web'),
    ...(database ? { DATABASE_URL: database.url } : {}),
  });
});

afterAll(async () => {
  await stopPortal(portal);
  await database?.drop();
  await rm(dataDir, { recursive: true, force: true });
});

/** Whether a new TCP connection to the port is accepted right now. */
const accepts = (onPort: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(onPort, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });

describe('SIGTERM', () => {
  it('finishes a request in flight, takes no new connection, closes the database and exits 0', async () => {
    const body = JSON.stringify({
      email: DEMO_ACCOUNT.email,
      mobile: DEMO_ACCOUNT.mobile,
      gstNo: DEMO_ACCOUNT.gstNo,
      tally_serialno: DEMO_ACCOUNT.tallySerialNo,
      password: DEMO_ACCOUNT.password,
    });
    // a slow client: the headers and half the body now, the rest after the signal
    const socket = connect(port, '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    let response = '';
    socket.on('data', (chunk: Buffer) => (response += chunk.toString()));
    const ended = new Promise((resolve) => socket.once('close', resolve));
    const half = Math.floor(body.length / 2);
    socket.write(
      `POST /api/auth/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body.slice(0, half)}`,
    );
    await new Promise((resolve) => setTimeout(resolve, 500));

    portal!.child.kill('SIGTERM');
    await expect.poll(() => accepts(port), { timeout: 10_000 }).toBe(false);
    expect(portal!.child.exitCode).toBeNull();

    socket.write(body.slice(half));
    await ended;
    expect(response).toMatch(/^HTTP\/1\.1 200 /);
    // and the connection is not kept alive to hold the stop open
    expect(response).toMatch(/\r\nconnection: close\r\n/i);
    // the sign-in challenge was stored (its code is queued for mail, sent by any instance)
    expect(JSON.parse(response.slice(response.indexOf('\r\n\r\n') + 4))).toMatchObject({
      success: true,
      tempToken: expect.any(String),
    });

    expect(await portal!.exited).toEqual({ code: 0, signal: null });
    expect(portal!.output()).toContain('"msg":"stopped"');
    // the embedded database's lock goes with its clean close
    expect(existsSync(path.join(dataDir, 'pglite', 'portal.lock'))).toBe(false);
  });
});
