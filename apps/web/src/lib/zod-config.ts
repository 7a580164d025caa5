/*
 * zod's compiled parsers probe for eval with `new Function`; the CSP (script-src 'self') forbids
 * eval, and the blocked probe is logged as a policy violation even though zod falls back. zod
 * keeps its settings on globalThis.__zod_globalConfig (one object for every copy of it) and
 * takes that object when it loads: setting `jitless` there before any schema loads spares the
 * first screen loading zod only to configure it.
 */
declare global {
  var __zod_globalConfig: { jitless?: boolean } | undefined;
}

(globalThis.__zod_globalConfig ??= {}).jitless = true;

export {};
