// The production build of the web app, shared by the portal starters of both end-to-end
// configurations and by their runs: it is kept in a folder named by a hash of everything the
// build reads, so a build of the same sources is reused and a change of any of them builds anew.
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
} from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';

const ROOT = path.resolve(import.meta.dirname, '..');
const BUILDS = path.join(import.meta.dirname, '.data/web');
/**
 * The web app (all of it but its dependencies), the contract it imports, the compiler settings
 * its own extend, the versions installed.
 */
const SOURCES = ['apps/web', 'packages/contract/src', 'tsconfig.base.json', 'package-lock.json'];

/** Folders of what was built or installed, which the build does not read. */
const BUILT = new Set(['node_modules', 'dist']);

function filesUnder(relative) {
  const full = path.join(ROOT, relative);
  if (!statSync(full).isDirectory()) return [relative];
  return readdirSync(full, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(ROOT, path.join(entry.parentPath, entry.name)))
    .filter((file) => !file.split(path.sep).some((part) => BUILT.has(part)));
}

function sourcesHash() {
  const hash = createHash('sha256');
  for (const file of SOURCES.flatMap(filesUnder).sort()) {
    hash
      .update(`${file}\0`)
      .update(readFileSync(path.join(ROOT, file)))
      .update('\0');
  }
  return hash.digest('hex').slice(0, 16);
}

/** A build not used for a day is gone; a suite that serves another may still be running. */
const KEEP_MS = 24 * 60 * 60 * 1000;

/** Marks the build as used now, and removes the builds that have not been for a while. */
function used(webDir) {
  const now = new Date();
  utimesSync(webDir, now, now);
  for (const name of readdirSync(BUILDS)) {
    const other = path.join(BUILDS, name);
    if (now.getTime() - statSync(other).mtimeMs > KEEP_MS) {
      rmSync(other, { recursive: true, force: true });
    }
  }
  return webDir;
}

/** Answers the folder of the build of the web app as its sources are now, building it if need be. */
export function builtWeb() {
  for (;;) {
    const hash = sourcesHash();
    const webDir = path.join(BUILDS, hash);
    if (existsSync(webDir)) return used(webDir);
    mkdirSync(BUILDS, { recursive: true });
    // built beside it and renamed when complete, so a half-made build is never taken for one
    const partial = `${webDir}.${process.pid}.partial`;
    const build = spawnSync(
      'npx',
      ['vite', 'build', '--outDir', partial, '--emptyOutDir', '--logLevel', 'warn'],
      { cwd: path.join(ROOT, 'apps/web'), stdio: 'inherit' },
    );
    if (build.status !== 0) process.exit(build.status ?? 1);
    if (sourcesHash() !== hash) {
      // a source changed while it was built: which state the build read is unknown
      rmSync(partial, { recursive: true, force: true });
      continue;
    }
    try {
      renameSync(partial, webDir);
    } catch (error) {
      // another run finished the same build first
      if (!existsSync(webDir)) throw error;
      rmSync(partial, { recursive: true, force: true });
    }
    return used(webDir);
  }
}
