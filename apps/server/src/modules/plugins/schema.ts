import { sql } from 'drizzle-orm';
import { bigint, index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';

/** Installers of the accounting plugin; the bytes live in the file store under `fileKey`. */
export const plugins = pgTable(
  'plugins',
  {
    id: uuid().primaryKey().defaultRandom(),
    platform: text().notNull(),
    version: text().notNull(),
    /** The name the browser saves the download as. */
    fileName: text().notNull(),
    fileKey: text().notNull(),
    size: bigint({ mode: 'number' }).notNull(),
    /** Hex SHA-256 of the bytes, recorded at upload so customers can verify a download. */
    sha256: text().notNull(),
    uploadedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    /** Retired installers stay on record but are no longer offered. */
    retiredAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    uniqueIndex('plugins_platform_version_live_idx')
      .on(t.platform, t.version)
      .where(sql`${t.retiredAt} is null`),
    index('plugins_uploaded_idx').on(t.uploadedAt),
  ],
);

export type PluginRow = typeof plugins.$inferSelect;
