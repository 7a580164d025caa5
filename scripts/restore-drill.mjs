// Backup, restore, and the drill that proves they work, for a portal on PostgreSQL and an
// S3-compatible bucket (docs/operations.md, "Backups and restore"). The running installation is
// named by the portal's own settings (DATABASE_URL, S3_BUCKET, S3_ENDPOINT, S3_REGION,
// S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY, S3_FORCE_PATH_STYLE) and is only ever read. A restore
// writes only where it is told to: RESTORE_DATABASE_URL and RESTORE_S3_BUCKET (RESTORE_S3_ENDPOINT,
// RESTORE_S3_REGION, RESTORE_S3_ACCESS_KEY_ID, RESTORE_S3_SECRET_ACCESS_KEY and
// RESTORE_S3_FORCE_PATH_STYLE default to the S3_* ones), and refuses a target that is the running
// installation's or holds anything. Needs pg_dump, pg_restore and psql of the server's major
// version or newer.
//
//   node scripts/restore-drill.mjs backup <dir>     the running installation to <dir>
//   node scripts/restore-drill.mjs restore <dir>    <dir> into the RESTORE_* target
//   node scripts/restore-drill.mjs drill [<dir>]    backup, restore into the target, check it
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import {
  CreateBucketCommand,
  GetObjectCommand,
  HeadBucketCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';

const env = process.env;
const need = (name, why = 'the same value the portal runs with') => {
  if (!env[name]) throw new Error(`${name} is required (${why})`);
  return env[name];
};
const TARGET = 'where to restore: never the running installation';

/** A bucket from the settings that start with `prefix` (`S3_`, or `RESTORE_S3_` falling back). */
function bucketOf(prefix) {
  const setting = (name) => env[`${prefix}${name}`] ?? env[`S3_${name}`];
  const accessKeyId = setting('ACCESS_KEY_ID');
  const secretAccessKey = setting('SECRET_ACCESS_KEY');
  const endpoint = setting('ENDPOINT');
  const client = new S3Client({
    // as the portal's own store: checksums only where S3 requires them, which S3-compatible
    // services (MinIO, s3rver) take in a plain request body
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    region: setting('REGION') ?? 'us-east-1',
    endpoint,
    forcePathStyle: ['true', '1', 'yes', 'on'].includes(
      (setting('FORCE_PATH_STYLE') ?? '').toLowerCase(),
    ),
    credentials: accessKeyId && secretAccessKey ? { accessKeyId, secretAccessKey } : undefined,
  });
  const name = prefix === 'S3_' ? need('S3_BUCKET') : need(`${prefix}BUCKET`, TARGET);
  return { client, name, where: `${endpoint ?? 'AWS'}/${name}` };
}
const portalBucket = () => bucketOf('S3_');
const targetBucket = () => bucketOf('RESTORE_S3_');

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

/** The object's bytes as a stream, with its length: never held whole in memory. */
async function openObject({ client, name }, key) {
  const answer = await client.send(new GetObjectCommand({ Bucket: name, Key: key }));
  return { body: answer.Body, length: answer.ContentLength };
}

/** Streams `source` into `key`: one PutObject, so that the object shows only once whole. */
async function putStream({ client, name }, key, source, length) {
  await client.send(
    new PutObjectCommand({ Bucket: name, Key: key, Body: source, ContentLength: length }),
  );
}

const sha256OfFile = async (file) => {
  const hash = createHash('sha256');
  await pipeline(createReadStream(file), hash);
  return hash.digest('hex');
};
const psql = (url, sql) =>
  execFileSync('psql', ['--no-psqlrc', '-v', 'ON_ERROR_STOP=1', '-At', '-d', url, '-c', sql], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  }).trim();

/** One server's one database, whatever the URL calls it: its server's start and its oid. */
const databaseIdentity = (url) =>
  psql(
    url,
    `SELECT pg_postmaster_start_time() || '/' || oid FROM pg_database WHERE datname = current_database()`,
  );

/** The target database, checked: not the portal's, and empty. Created when it does not exist. */
function checkedTargetDatabase() {
  const target = need('RESTORE_DATABASE_URL', TARGET);
  const portal = env.DATABASE_URL;
  const url = new URL(target);
  const name = decodeURIComponent(url.pathname.slice(1));
  let identity;
  try {
    identity = databaseIdentity(target);
  } catch (error) {
    if (!/does not exist/.test(String(error.stderr ?? error.message))) throw error;
    if (!/^[a-z_][a-z0-9_]*$/.test(name)) {
      throw new Error(`the target database "${name}" does not exist; create it first`);
    }
    url.pathname = '/postgres';
    psql(url.toString(), `CREATE DATABASE ${name}`);
    console.log(`target: created the empty database ${name}`);
    return target;
  }
  if (portal && identity === databaseIdentity(portal)) {
    throw new Error(
      "RESTORE_DATABASE_URL names the running portal's database (DATABASE_URL): nothing was changed",
    );
  }
  const tables = psql(
    target,
    `SELECT count(*) FROM pg_tables WHERE schemaname NOT IN ('pg_catalog', 'information_schema')`,
  );
  if (tables !== '0') {
    throw new Error(
      `the target database ${name} has ${tables} tables: a restore goes into an empty database only, nothing was changed`,
    );
  }
  return target;
}

/** The target bucket, checked: not the portal's, and empty. Created when it does not exist. */
async function checkedTargetBucket() {
  const target = targetBucket();
  if (env.S3_BUCKET && target.where === portalBucket().where) {
    throw new Error(
      "RESTORE_S3_BUCKET names the running portal's bucket (S3_BUCKET at the same endpoint): nothing was changed",
    );
  }
  const exists = await target.client.send(new HeadBucketCommand({ Bucket: target.name })).then(
    () => true,
    (error) => {
      if (error.$metadata?.httpStatusCode === 404) return false;
      throw error;
    },
  );
  if (!exists) {
    await target.client.send(new CreateBucketCommand({ Bucket: target.name }));
    console.log(`target: created the empty bucket ${target.name}`);
  } else if ((await listKeys(target)).length > 0) {
    throw new Error(
      `the target bucket ${target.name} holds objects: a restore goes into an empty bucket only, nothing was changed`,
    );
  }
  return target;
}

/** pg_dump's custom format (compressed, restorable table by table); every object, streamed. */
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
  const store = portalBucket();
  const manifest = [];
  for (const key of await listKeys(store)) {
    const { body } = await openObject(store, key);
    // keys are the portal's own (plugins/…, receipts/…): safe as relative paths
    const file = path.join(dir, 'bucket', key);
    await mkdir(path.dirname(file), { recursive: true });
    const hash = createHash('sha256');
    body.on('data', (chunk) => hash.update(chunk));
    await pipeline(body, createWriteStream(file));
    manifest.push({ key, size: (await stat(file)).size, sha256: hash.digest('hex') });
  }
  await writeFile(path.join(dir, 'bucket.json'), JSON.stringify(manifest, null, 2));
  console.log(`backup: database and ${manifest.length} objects in ${dir}`);
  return manifest;
}

/** Into the RESTORE_* target, once it is shown to be neither the portal's nor holding anything. */
export async function restore(dir) {
  const databaseUrl = checkedTargetDatabase();
  const store = await checkedTargetBucket();
  const manifest = JSON.parse(await readFile(path.join(dir, 'bucket.json'), 'utf8'));
  // every file is checked before anything is written
  for (const { key, sha256: expected } of manifest) {
    if ((await sha256OfFile(path.join(dir, 'bucket', key))) !== expected) {
      throw new Error(`the backup of ${key} does not match its checksum: nothing was restored`);
    }
  }
  execFileSync('pg_restore', [
    '--no-owner',
    '--exit-on-error',
    '--dbname',
    databaseUrl,
    path.join(dir, 'database.dump'),
  ]);
  for (const { key, size } of manifest) {
    await putStream(store, key, createReadStream(path.join(dir, 'bucket', key)), size);
  }
  console.log(`restore: database and ${manifest.length} objects from ${dir} into ${store.where}`);
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

async function sha256OfObject(store, key) {
  const hash = createHash('sha256');
  await pipeline((await openObject(store, key)).body, hash);
  return hash.digest('hex');
}

/**
 * Backs the running installation up (read only), restores it into the target, and checks there
 * that the newest receipt's customer, order and file came back. The backup is kept whenever
 * anything fails, and said where; a folder the drill made is removed once it passes.
 */
export async function drill(given) {
  const databaseUrl = need('DATABASE_URL');
  const expected = newestReceipt(databaseUrl);
  if (!expected) throw new Error('the drill needs a customer with a paid order and its receipt');
  const receiptSum = await sha256OfObject(portalBucket(), expected.fileKey);
  // the target is checked before anything is copied
  const target = checkedTargetDatabase();
  await checkedTargetBucket();
  const dir = given ?? (await mkdtemp(path.join(tmpdir(), 'portal-backup-')));
  try {
    await backup(dir);
    await restore(dir);
    const back = newestReceipt(target);
    const customer = psql(
      target,
      `SELECT count(*) FROM customers WHERE email = '${expected.email.replace(/'/g, "''")}'`,
    );
    if (customer !== '1') throw new Error(`customer ${expected.email} is not back`);
    if (back?.orderId !== expected.orderId)
      throw new Error(`order ${expected.orderId} is not back`);
    const restoredSum = await sha256OfObject(targetBucket(), expected.fileKey).catch(() => '');
    if (restoredSum !== receiptSum) throw new Error(`receipt file ${expected.fileKey} is not back`);
  } catch (error) {
    error.message = `${error.message} (the backup is kept in ${dir})`;
    throw error;
  }
  if (!given) await rm(dir, { recursive: true, force: true });
  console.log(
    `drill passed: customer ${expected.email}, order ${expected.orderId} and receipt file ${expected.fileKey} are back in the target`,
  );
}

const [command, dir] = process.argv.slice(2);
const commands = {
  backup: () => backup(dir ?? need('BACKUP_DIR', 'where to write the backup')),
  restore: () => restore(dir ?? need('BACKUP_DIR', 'the backup to restore')),
  drill: () => drill(dir),
};
if (!commands[command]) {
  console.error(
    'usage: node scripts/restore-drill.mjs backup <dir> | restore <dir> | drill [<dir>]',
  );
  process.exit(2);
}
commands[command]().catch((error) => {
  console.error(`Error: ${error.message}`);
  process.exit(1);
});
