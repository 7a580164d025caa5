/**
 * The JavaScript a browser fetches on a first visit, gzipped, from Vite's manifest: for /login,
 * and for the signed-in /dashboard, with the chunks of it that carry zod.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

interface ManifestChunk {
  file: string;
  imports?: string[];
  dynamicImports?: string[];
}
type Manifest = Record<string, ManifestChunk>;

export interface FirstLoad {
  files: number;
  rawKiB: number;
  gzipKiB: number;
  /** The chunks (file names) of that first load that carry zod. */
  withZod: string[];
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

const readManifest = (webDist: string) =>
  JSON.parse(readFileSync(path.join(webDist, '.vite/manifest.json'), 'utf8')) as Manifest;

/**
 * The entry chunk, the steps it imports at once (apps/web/src/main.tsx; index.html preloads
 * them), the given route modules and their static imports: what index.html loads and what the
 * browser fetches with each route module as it finds its imports.
 */
function firstLoadOf(webDist: string, manifest: Manifest, routes: string[]): FirstLoad {
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    if (!manifest[key]) throw new Error(`manifest has no ${key}`);
    seen.add(key);
    for (const imported of manifest[key].imports ?? []) visit(imported);
  };
  visit('index.html');
  for (const step of manifest['index.html']?.dynamicImports ?? []) visit(step);
  for (const route of routes) visit(route);
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

/** /login: the entry and the login route's chunk, when it is one of its own. */
export function loginFirstLoad(webDist: string): FirstLoad {
  const manifest = readManifest(webDist);
  // bundled into the entry when the router imports it statically
  const loginRoute = Object.keys(manifest).find((key) => /(^|\/)login\.tsx?$/.test(key));
  return firstLoadOf(webDist, manifest, loginRoute ? [loginRoute] : []);
}

/** The signed-in /dashboard: the entry and the dashboard's route modules. */
export const dashboardFirstLoad = (webDist: string): FirstLoad =>
  firstLoadOf(webDist, readManifest(webDist), DASHBOARD_ROUTE_MODULES);

/** V8's explicit compile hint (apps/web/vite.config.ts), read on a script's first line only. */
export const COMPILE_HINT = '//# allFunctionsCalledOnLoad';

/**
 * The built chunks whose first line is not the compile hint. Vite's preload helper puts the list
 * of scripts it would link (`m.f=[...]`) at the top of a chunk, so a chunk with such a list, which
 * decision 052 keeps out (each link's request costs a phone's main thread), shows here too.
 */
export function chunksWithoutCompileHint(webDist: string): string[] {
  const chunks = Object.values(readManifest(webDist))
    .map(({ file }) => file)
    .filter((file) => file.endsWith('.js'));
  if (chunks.length === 0) throw new Error(`no chunk in the manifest of ${webDist}`);
  return chunks.filter(
    (file) => !readFileSync(path.join(webDist, file), 'utf8').startsWith(`${COMPILE_HINT}\n`),
  );
}
