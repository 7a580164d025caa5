import { createHash, randomUUID } from 'node:crypto';
import { and, asc, desc, eq, isNull } from 'drizzle-orm';
import { PLUGIN_LINK_TTL_SECONDS, pluginDownloadPath, type Plugin } from '@portal/contract';
import type { FileStore } from '../../adapters/file-store';
import type { Database } from '../../db/client';
import {
  jsonInstant,
  runSessionRead,
  sessionReadText,
  type SessionColumns,
  type UnrevokedSession,
  type SessionAuth,
} from '../../db/session-read';
import type { Statement } from '../../db/statements';
import type { Clock } from '../../lib/clock';
import { AppError } from '../../lib/errors';
import type { SignedLinks } from '../../lib/signed-links';
import { plugins, type PluginRow } from './schema';

/** Names a browser can save under on every platform, and a file-store key can hold. */
const FILE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,119}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface UploadPluginInput {
  platform: string;
  version: string;
  fileName: string;
  data: Buffer;
}

export const sha256Hex = (data: Buffer) => createHash('sha256').update(data).digest('hex');

/**
 * Stores an installer and records it. Uploading the same bytes for the same platform and
 * version again changes nothing; different bytes under a live platform and version are refused.
 */
export async function uploadPlugin(
  deps: { db: Database; files: FileStore; clock: Clock },
  input: UploadPluginInput,
): Promise<{ plugin: PluginRow; created: boolean }> {
  const platform = input.platform.trim();
  const version = input.version.trim();
  if (!platform || platform.length > 40) {
    throw new AppError('BAD_REQUEST', 'platform: must be 1 to 40 characters');
  }
  if (!version || version.length > 40) {
    throw new AppError('BAD_REQUEST', 'version: must be 1 to 40 characters');
  }
  if (!FILE_NAME.test(input.fileName)) {
    throw new AppError(
      'BAD_REQUEST',
      'fileName: use letters, digits, dots, dashes and underscores only (at most 120)',
    );
  }
  if (input.data.length === 0) throw new AppError('BAD_REQUEST', 'file: is empty');

  const sha256 = sha256Hex(input.data);
  const existing = await findLive(deps.db, platform, version);
  if (existing) {
    if (existing.sha256 === sha256 && existing.fileName === input.fileName) {
      return { plugin: existing, created: false };
    }
    throw new AppError(
      'CONFLICT',
      `${platform} ${version} is already published with other content; retire it first`,
    );
  }

  const id = randomUUID();
  const fileKey = `plugins/${id}/${input.fileName}`;
  await deps.files.put(fileKey, input.data);
  try {
    const [plugin] = await deps.db
      .insert(plugins)
      .values({
        id,
        platform,
        version,
        fileName: input.fileName,
        fileKey,
        size: input.data.length,
        sha256,
        uploadedAt: deps.clock.now(),
      })
      .returning();
    return { plugin: plugin!, created: true };
  } catch (error) {
    await deps.files.remove(fileKey);
    // a concurrent upload of the same platform and version won the unique index
    const raced = await findLive(deps.db, platform, version);
    if (raced?.sha256 === sha256) return { plugin: raced, created: false };
    throw error;
  }
}

async function findLive(db: Database, platform: string, version: string) {
  const [row] = await db
    .select()
    .from(plugins)
    .where(
      and(eq(plugins.platform, platform), eq(plugins.version, version), isNull(plugins.retiredAt)),
    );
  return row;
}

/**
 * The installers on offer, by platform, newest upload first, as one JSON value, beside the
 * request's session. $1 the session, $2 the customer.
 */
const liveScreen: Statement = {
  name: 'plugins_screen',
  text: sessionReadText(`(SELECT coalesce(json_agg(json_build_object('id', p.id,
      'platform', p.platform, 'fileName', p.file_name, 'version', p.version,
      'uploadedAt', ${jsonInstant('p.uploaded_at')}, 'size', p.size, 'sha256', p.sha256
    ) ORDER BY p.platform ASC, p.uploaded_at DESC), '[]')
    FROM plugins p WHERE p.retired_at IS NULL) AS plugins`),
};

/** An installer as the list's statement writes it: its instant as ISO text. */
type ListedPlugin = Pick<
  PluginRow,
  'id' | 'platform' | 'fileName' | 'version' | 'size' | 'sha256'
> & {
  uploadedAt: string;
};

interface LiveScreenRow extends SessionColumns {
  plugins: ListedPlugin[];
}

/**
 * Installers on offer, by platform, newest version first, each with a download link signed for
 * the customer, and the session read beside them for the route to confirm.
 */
export async function listLivePlugins(
  deps: { db: Database; signedLinks: SignedLinks },
  auth: SessionAuth,
): Promise<{ plugins: Plugin[]; session: UnrevokedSession | undefined }> {
  const { row, session } = await runSessionRead<LiveScreenRow>(deps.db, auth, liveScreen, []);
  return {
    plugins: (row?.plugins ?? []).map((plugin) => ({
      _id: plugin.id,
      platform: plugin.platform,
      fileName: plugin.fileName,
      version: plugin.version,
      uploadedDate: plugin.uploadedAt,
      downloadURL: deps.signedLinks.sign(
        pluginDownloadPath(plugin.id),
        auth.customerId,
        PLUGIN_LINK_TTL_SECONDS,
      ),
      size: plugin.size,
      sha256: plugin.sha256,
    })),
    session,
  };
}

/** Every installer, retired ones included, for the operator. */
export function listAllPlugins(db: Database): Promise<PluginRow[]> {
  return db.select().from(plugins).orderBy(asc(plugins.platform), desc(plugins.uploadedAt));
}

/** A live installer, or 404: retired ones are no longer handed out, even by old links. */
export async function getLivePlugin(db: Database, id: string): Promise<PluginRow> {
  if (!UUID.test(id)) throw new AppError('NOT_FOUND', 'Plugin not found');
  const [row] = await db
    .select()
    .from(plugins)
    .where(and(eq(plugins.id, id), isNull(plugins.retiredAt)));
  if (!row) throw new AppError('NOT_FOUND', 'Plugin not found');
  return row;
}

/** Stops offering an installer; retiring twice is fine. The bytes stay for the record. */
export async function retirePlugin(db: Database, clock: Clock, id: string): Promise<PluginRow> {
  if (!UUID.test(id)) throw new AppError('NOT_FOUND', 'Plugin not found');
  const [row] = await db.select().from(plugins).where(eq(plugins.id, id));
  if (!row) throw new AppError('NOT_FOUND', 'Plugin not found');
  if (row.retiredAt) return row;
  const [updated] = await db
    .update(plugins)
    .set({ retiredAt: clock.now() })
    .where(and(eq(plugins.id, id), isNull(plugins.retiredAt)))
    .returning();
  return updated ?? row;
}
