// Global set-up of the server suite's PostgreSQL run: one migrated template database per run,
// from which every test database is copied (CREATE DATABASE ... TEMPLATE), instead of migrating
// each one. Dropped again when the run ends.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openPostgres } from '../db/client';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The migrated template of the PostgreSQL run; empty on PGlite. */
    postgresTemplate: string;
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

export default async function setup(project: TestProject) {
  const serverUrl = process.env.TEST_DB === 'postgres' ? process.env.TEST_DATABASE_URL : undefined;
  if (!serverUrl) {
    project.provide('postgresTemplate', '');
    return;
  }
  const name = `portal_template_${randomBytes(6).toString('hex')}`;
  await withServer(serverUrl, `CREATE DATABASE ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const handle = await openPostgres(url.toString());
  try {
    await handle.migrate();
  } finally {
    // a template is copied only while nobody is connected to it
    await handle.close();
  }
  project.provide('postgresTemplate', name);
  return () => withServer(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
}
