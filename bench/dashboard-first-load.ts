/**
 * The JavaScript a browser runs for a signed-in /dashboard on a first visit, from Vite's
 * manifest, and which of it carries zod: none of it may, since building zod and the contract's
 * schemas was the largest part of the dashboard's blocking time (the schemas come later, in a
 * chunk of their own, lib/response-schemas in the web app).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

interface ManifestChunk {
  file: string;
  imports?: string[];
}

/** The route modules the router loads for /dashboard, outermost first (apps/web/src/app/router). */
export const DASHBOARD_ROUTE_MODULES = [
  'src/app/routes/with-queries.tsx',
  'src/app/routes/app-layout.tsx',
  'src/app/routes/dashboard.tsx',
];

/**
 * Names zod gives its classes, kept as strings by any minifier: a chunk with one of them
 * defines zod's schema types, which is what building any schema starts from.
 */
const ZOD_MARKERS = ['"$ZodType"', '`$ZodType`', "'$ZodType'"];

export const carriesZod = (code: string) => ZOD_MARKERS.some((marker) => code.includes(marker));

export interface DashboardFirstLoad {
  files: number;
  rawKiB: number;
  gzipKiB: number;
  /** The chunks (file names) of that first load that carry zod. */
  withZod: string[];
}

/**
 * The entry chunk, the dashboard's route modules and their static imports: what index.html
 * loads and what Vite's preload helper fetches with each route module.
 */
export function dashboardFirstLoad(webDist: string): DashboardFirstLoad {
  const manifest = JSON.parse(
    readFileSync(path.join(webDist, '.vite/manifest.json'), 'utf8'),
  ) as Record<string, ManifestChunk>;
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    if (!manifest[key]) throw new Error(`manifest has no ${key}`);
    seen.add(key);
    for (const imported of manifest[key].imports ?? []) visit(imported);
  };
  visit('index.html');
  for (const route of DASHBOARD_ROUTE_MODULES) visit(route);
  let gzip = 0;
  let raw = 0;
  const withZod: string[] = [];
  for (const key of seen) {
    const file = manifest[key]!.file;
    const bytes = readFileSync(path.join(webDist, file));
    raw += bytes.length;
    gzip += gzipSync(bytes, { level: 9 }).length;
    if (carriesZod(bytes.toString('utf8'))) withZod.push(path.basename(file));
  }
  return { files: seen.size, rawKiB: raw / 1024, gzipKiB: gzip / 1024, withZod };
}
