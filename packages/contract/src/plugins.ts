import { z } from 'zod';
import { text } from './primitives';

export const pluginPaths = {
  list: '/api/plugins',
  /** Served without a bearer token: a new tab carries none; the signed query proves access. */
  download: '/api/plugins/:id/download',
} as const;

export const pluginDownloadPath = (id: string) => `/api/plugins/${encodeURIComponent(id)}/download`;

/** A downloadable installer (spec §3 Plugin, plus size and checksum to verify a download). */
export const PluginSchema = z.object({
  _id: z.string(),
  platform: z.string(),
  fileName: z.string(),
  version: z.string(),
  uploadedDate: z.string(),
  /** A short-lived signed link, bound to the customer who listed it. */
  downloadURL: z.string(),
  /** Bytes. */
  size: z.number().int().nonnegative(),
  /** Hex SHA-256 of the file's bytes. */
  sha256: z.string(),
});
export type Plugin = z.infer<typeof PluginSchema>;

export const PluginsResponseSchema = z.object({
  success: z.literal(true),
  plugins: z.array(PluginSchema),
});
export type PluginsResponse = z.infer<typeof PluginsResponseSchema>;

export const PluginDownloadQuerySchema = z.object({
  expires: text().max(20).optional(),
  sub: text().max(100).optional(),
  sig: text().max(100).optional(),
});

/** How long a download link works; the screen fetches fresh links before they run out. */
export const PLUGIN_LINK_TTL_SECONDS = 15 * 60;
