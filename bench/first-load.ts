/** The JavaScript a browser fetches for /login on a first visit, gzipped, from Vite's manifest. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

interface ManifestChunk {
  file: string;
  imports?: string[];
}

export interface FirstLoad {
  files: number;
  rawKiB: number;
  gzipKiB: number;
}

/** The entry chunk, the login route's chunk (when it is one of its own), and their static imports. */
export function loginFirstLoad(webDist: string): FirstLoad {
  const manifest = JSON.parse(
    readFileSync(path.join(webDist, '.vite/manifest.json'), 'utf8'),
  ) as Record<string, ManifestChunk>;
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    for (const imported of manifest[key]?.imports ?? []) visit(imported);
  };
  visit('index.html');
  // bundled into the entry when the router imports it statically
  const loginRoute = Object.keys(manifest).find((key) => /(^|\/)login\.tsx?$/.test(key));
  if (loginRoute) visit(loginRoute);
  let gzip = 0;
  let raw = 0;
  for (const key of seen) {
    const chunk = manifest[key];
    if (!chunk) throw new Error(`manifest has no ${key}`);
    const bytes = readFileSync(path.join(webDist, chunk.file));
    raw += bytes.length;
    gzip += gzipSync(bytes, { level: 9 }).length;
  }
  return { files: seen.size, rawKiB: raw / 1024, gzipKiB: gzip / 1024 };
}
