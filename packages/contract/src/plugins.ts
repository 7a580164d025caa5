import { z } from 'zod';
import { text } from './primitives';

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
