import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { runnerImport, type Plugin } from 'vite';
import type { renderFrames } from './scripts/prerender-frames';
import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { compression, defineAlgorithm } from 'vite-plugin-compression2';

const alias = { '@': path.resolve(import.meta.dirname, 'src') };

/**
 * The first HTML carries the sign-in screen and the signed-in shell (with the dashboard loading
 * inside), prerendered from the real components (scripts/prerender-frames.tsx), and right after
 * them a small script that shows the one the route will render (scripts/route-frame.js). The
 * largest content is painted before any of the app's JavaScript arrives; main.tsx renders once
 * the route's code is in, over the same boxes.
 */
function firstHtmlFrames(): Plugin {
  const frameScript = readFileSync(path.join(import.meta.dirname, 'scripts/route-frame.js'));
  const hash = createHash('sha256').update(frameScript).digest('base64url').slice(0, 8);
  const frameScriptFile = `assets/route-frame-${hash}.js`;
  return {
    name: 'first-html-frames',
    apply: 'build',
    async transformIndexHtml(html) {
      const { module } = await runnerImport<{ renderFrames: typeof renderFrames }>(
        path.join(import.meta.dirname, 'scripts/prerender-frames.tsx'),
        { configFile: false, root: import.meta.dirname, resolve: { alias }, logLevel: 'error' },
      );
      const frames = module.renderFrames();
      return html.replace(
        '<div id="root"></div>',
        // disabled until React takes over, so that nothing typed into a frame is lost
        `<div id="root"><fieldset data-frame="login" disabled>${frames.login}</fieldset>` +
          `<fieldset data-frame="shell" disabled>${frames.shell}</fieldset></div>` +
          // outside #root, which React empties; the frames stay hidden until it has run
          `<script src="/${frameScriptFile}"></script>`,
      );
    },
    generateBundle() {
      this.emitFile({ type: 'asset', fileName: frameScriptFile, source: frameScript });
    },
  };
}

/**
 * `<link rel="modulepreload">` in the first HTML for the chunks main.tsx imports in steps (and
 * what they import), so that they download with the entry and the steps wait for no network.
 * At low priority, as the entry script itself loads: at the default (high) they would hold up
 * the first paint of the HTML's frame.
 */
function preloadEntrySteps(): Plugin {
  return {
    name: 'preload-entry-steps',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, { bundle, chunk }) {
        if (!bundle || !chunk) return html;
        const files = new Set<string>();
        const visit = (fileName: string) => {
          const found = bundle[fileName];
          if (files.has(fileName) || found?.type !== 'chunk') return;
          files.add(fileName);
          found.imports.forEach(visit);
        };
        chunk.dynamicImports.forEach(visit);
        // the entry and what it imports statically have their own tags already
        [chunk.fileName, ...chunk.imports].forEach((file) => files.delete(file));
        return [...files].map((file) => ({
          tag: 'link',
          attrs: {
            rel: 'modulepreload',
            crossorigin: true,
            fetchpriority: 'low',
            href: `/${file}`,
          },
          injectTo: 'head' as const,
        }));
      },
    },
  };
}

export default defineConfig({
  plugins: [
    firstHtmlFrames(),
    preloadEntrySteps(),
    react(),
    tailwindcss(),
    // brotli and gzip copies beside each file; the server picks one by Accept-Encoding
    compression({
      algorithms: [defineAlgorithm('brotliCompress'), defineAlgorithm('gzip', { level: 9 })],
      threshold: 1024,
    }),
  ],
  resolve: { alias },
  server: { port: 5173, proxy: { '/api': 'http://localhost:3000' } },
  // the manifest lets bench/ measure what each route loads
  build: {
    outDir: 'dist',
    sourcemap: false,
    manifest: true,
    // one stylesheet, linked by the first HTML: no chunk carries CSS of its own to link first
    cssCodeSplit: false,
    modulePreload: {
      // A route's chunk brings its imports itself, as the browser finds them, instead of Vite's
      // preload helper linking every chunk a route needs in one task (27 for the dashboard):
      // starting each request took 2 ms of a phone's main thread (decision 052). With nothing
      // to link, no chunk starts with the helper's list either, and each begins with its
      // compile hint (below).
      resolveDependencies: (_file, deps, { hostType }) => (hostType === 'html' ? deps : []),
    },
    rolldownOptions: {
      output: {
        // V8's explicit compile hint, on line 1 where V8 reads it: the engine compiles all of a
        // chunk's functions while it streams in, off the main thread, instead of each one on the
        // main thread at its first call. A first load runs most of each chunk it loads (React,
        // the router, zod, the screens), and compiling at first call lengthened the tasks a
        // phone counts as blocking (decision 056).
        postBanner: '//# allFunctionsCalledOnLoad',
      },
    },
  },
  test: {
    name: 'web',
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['src/test/setup.ts'],
    css: false,
    // a file's first test also imports its screen's code, which on a busy machine takes seconds
    testTimeout: 15_000,
  },
});
