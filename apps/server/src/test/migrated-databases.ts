// Global set-up of the server suite: the migrations run once per run, not once per test file.
// - On PostgreSQL: one migrated template database, from which every test database is copied
//   (CREATE DATABASE ... TEMPLATE), dropped again when the run ends.
// - On PGlite: one migrated data directory, dumped to a file that every test file loads. A new
//   PGlite costs about 5 s to create and migrate on two cores, and about 1 s to load from a dump.
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openPglite, openPostgres } from '../db/client';
import { installQueue } from '../adapters/queue-install';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The migrated template of the PostgreSQL run; empty on PGlite. */
    postgresTemplate: string;
    /** The file holding the migrated PGlite data directory of the PGlite run; empty on PostgreSQL. */
    pgliteImage: string;
  }
}

const withServer = async (serverUrl: string, sql: string) => {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(sql);
  } finally {
    await admin.end();
  }
};

/** A migrated PGlite data directory, as a tar image. */
export async function migratedPgliteImage(): Promise<Blob> {
  const handle = await openPglite();
  try {
    await handle.migrate(installQueue);
    return await (handle.db as unknown as { $client: PGlite }).$client.dumpDataDir('none');
  } finally {
    await handle.close();
  }
}

async function providePgliteImage(project: TestProject) {
  const folder = await mkdtemp(path.join(tmpdir(), 'portal-pglite-image-'));
  const file = path.join(folder, 'migrated.tar');
  await writeFile(file, Buffer.from(await (await migratedPgliteImage()).arrayBuffer()));
  project.provide('postgresTemplate', '');
  project.provide('pgliteImage', file);
  return () => rm(folder, { recursive: true, force: true });
}

export default async function setup(project: TestProject) {
  const serverUrl = process.env.TEST_DB === 'postgres' ? process.env.TEST_DATABASE_URL : undefined;
  if (!serverUrl) return providePgliteImage(project);

  const name = `portal_template_${randomBytes(6).toString('hex')}`;
  await withServer(serverUrl, `CREATE DATABASE ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const handle = await openPostgres(url.toString());
  try {
    await handle.migrate(installQueue);
  } finally {
    // a template is copied only while nobody is connected to it
    await handle.close();
  }
  project.provide('postgresTemplate', name);
  project.provide('pgliteImage', '');
  return () => withServer(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
}
