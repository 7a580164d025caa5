// Backup, restore, and the drill that proves they work, for a portal on PostgreSQL and an
// S3-compatible bucket (docs/operations.md, "Backups and restore"). It reads the portal's own
// settings: DATABASE_URL and S3_BUCKET, S3_ENDPOINT, S3_REGION, S3_ACCESS_KEY_ID,
// S3_SECRET_ACCESS_KEY, S3_FORCE_PATH_STYLE. Needs pg_dump, pg_restore and psql of the server's
// major version or newer.
//
//   node scripts/restore-drill.mjs backup <dir>    database to <dir>/database.dump, bucket to <dir>/bucket/
//   node scripts/restore-drill.mjs restore <dir>   into an EMPTY database and bucket
//   node scripts/restore-drill.mjs drill           backup, wipe both, restore, check; on a copy, never on production
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  DeleteObjectsCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';

const env = process.env;
const need = (name) => {
  if (!env[name]) throw new Error(`${name} is required (the same value the portal runs with)`);
  return env[name];
};

function bucket() {
  const credentials =
    env.S3_ACCESS_KEY_ID && env.S3_SECRET_ACCESS_KEY
      ? { accessKeyId: env.S3_ACCESS_KEY_ID, secretAccessKey: env.S3_SECRET_ACCESS_KEY }
      : undefined;
  const client = new S3Client({
    region: env.S3_REGION ?? 'us-east-1',
    endpoint: env.S3_ENDPOINT,
    forcePathStyle: ['true', '1', 'yes', 'on'].includes(
      (env.S3_FORCE_PATH_STYLE ?? '').toLowerCase(),
    ),
    credentials,
  });
  return { client, name: need('S3_BUCKET') };
}

async function listKeys({ client, name }) {
  const keys = [];
  let token;
  do {
    const page = await client.send(
      new ListObjectsV2Command({ Bucket: name, ContinuationToken: token }),
    );
    for (const object of page.Contents ?? []) keys.push(object.Key);
    token = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (token);
  return keys;
}

async function readObject({ client, name }, key) {
  const answer = await client.send(new GetObjectCommand({ Bucket: name, Key: key }));
  return Buffer.from(await answer.Body.transformToByteArray());
}

const sha256 = (data) => createHash('sha256').update(data).digest('hex');
const psql = (url, sql) =>
  execFileSync('psql', ['--no-psqlrc', '-v', 'ON_ERROR_STOP=1', '-At', '-d', url, '-c', sql], {
    encoding: 'utf8',
  }).trim();

/** pg_dump's custom format (compressed, restorable table by table); a copy of every object. */
export async function backup(dir) {
  const databaseUrl = need('DATABASE_URL');
  await mkdir(path.join(dir, 'bucket'), { recursive: true });
  execFileSync('pg_dump', [
    '--format=custom',
    '--no-owner',
    '--file',
    path.join(dir, 'database.dump'),
    databaseUrl,
  ]);
  const store = bucket();
  const manifest = [];
  for (const key of await listKeys(store)) {
    const data = await readObject(store, key);
    // keys are the portal's own (plugins/…, receipts/…): safe as relative paths
    const file = path.join(dir, 'bucket', key);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, data);
    manifest.push({ key, size: data.length, sha256: sha256(data) });
  }
  await writeFile(path.join(dir, 'bucket.json'), JSON.stringify(manifest, null, 2));
  console.log(`backup: database and ${manifest.length} objects in ${dir}`);
  return manifest;
}

/** Into an empty database (the portal's migrations must not have run) and an empty bucket. */
export async function restore(dir) {
  const databaseUrl = need('DATABASE_URL');
  execFileSync('pg_restore', [
    '--no-owner',
    '--exit-on-error',
    '--dbname',
    databaseUrl,
    path.join(dir, 'database.dump'),
  ]);
  const store = bucket();
  const manifest = JSON.parse(await readFile(path.join(dir, 'bucket.json'), 'utf8'));
  for (const { key, sha256: expected } of manifest) {
    const data = await readFile(path.join(dir, 'bucket', key));
    if (sha256(data) !== expected)
      throw new Error(`the backup of ${key} does not match its checksum`);
    await store.client.send(new PutObjectCommand({ Bucket: store.name, Key: key, Body: data }));
  }
  console.log(`restore: database and ${manifest.length} objects from ${dir}`);
}

/** The newest invoice (the receipt), with its order and customer: what the drill expects back. */
function newestReceipt(databaseUrl) {
  const row = psql(
    databaseUrl,
    `SELECT c.email, o.id, r.file_key FROM invoices r JOIN orders o ON o.id = r.order_id
     JOIN customers c ON c.id = o.customer_id ORDER BY r.issued_at DESC LIMIT 1`,
  );
  if (!row) return null;
  const [email, orderId, fileKey] = row.split('|');
  return { email, orderId, fileKey };
}

/** Drops the database and creates it again, empty: the loss the drill recovers from. */
function wipeDatabase(databaseUrl) {
  const url = new URL(databaseUrl);
  const name = decodeURIComponent(url.pathname.slice(1));
  if (!/^[a-z_][a-z0-9_]*$/.test(name))
    throw new Error(`the drill only wipes a plainly named database, not "${name}"`);
  url.pathname = '/postgres';
  psql(url.toString(), `DROP DATABASE ${name} WITH (FORCE)`);
  psql(url.toString(), `CREATE DATABASE ${name}`);
}

async function wipeBucket(store) {
  const keys = await listKeys(store);
  for (let i = 0; i < keys.length; i += 1000) {
    await store.client.send(
      new DeleteObjectsCommand({
        Bucket: store.name,
        Delete: { Objects: keys.slice(i, i + 1000).map((Key) => ({ Key })) },
      }),
    );
  }
}

export async function drill() {
  const databaseUrl = need('DATABASE_URL');
  const store = bucket();
  const expected = newestReceipt(databaseUrl);
  if (!expected) throw new Error('the drill needs a customer with a paid order and its receipt');
  const receiptSum = sha256(await readObject(store, expected.fileKey));
  const dir = await mkdtemp(path.join(tmpdir(), 'portal-backup-'));
  try {
    await backup(dir);
    wipeDatabase(databaseUrl);
    await wipeBucket(store);
    if ((await listKeys(store)).length > 0) throw new Error('the bucket was not emptied');
    console.log('wiped: the database is empty and so is the bucket');
    await restore(dir);

    const back = newestReceipt(databaseUrl);
    const customer = psql(
      databaseUrl,
      `SELECT count(*) FROM customers WHERE email = '${expected.email.replace(/'/g, "''")}'`,
    );
    if (customer !== '1') throw new Error(`customer ${expected.email} is not back`);
    if (back?.orderId !== expected.orderId)
      throw new Error(`order ${expected.orderId} is not back`);
    const restoredSum = sha256(
      await readObject(store, expected.fileKey).catch(() => Buffer.alloc(0)),
    );
    if (restoredSum !== receiptSum) throw new Error(`receipt file ${expected.fileKey} is not back`);
    console.log(
      `drill passed: customer ${expected.email}, order ${expected.orderId} and receipt file ${expected.fileKey} are back`,
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const [command, dir] = process.argv.slice(2);
const commands = {
  backup: () => backup(dir ?? need('BACKUP_DIR')),
  restore: () => restore(dir ?? need('BACKUP_DIR')),
  drill,
};
if (!commands[command]) {
  console.error('usage: node scripts/restore-drill.mjs backup <dir> | restore <dir> | drill');
  process.exit(2);
}
commands[command]().catch((error) => {
  console.error(`Error: ${error.message}`);
  process.exit(1);
});
