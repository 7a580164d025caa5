/**
 * How the portal serves the built web app: the entry chunk compressed, hashed assets cached for
 * a year, index.html checked again on every visit.
 */
export interface AssetHeaders {
  entryChunk: string;
  /** content-encoding of the entry chunk, asked for with `accept-encoding: br, gzip`. */
  entryEncoding: string;
  hashedAssetCacheControl: string;
  indexCacheControl: string;
}

export async function assetHeaders(baseUrl: string): Promise<AssetHeaders> {
  const page = await fetch(`${baseUrl}/login`, { headers: { accept: 'text/html' } });
  if (!page.ok) throw new Error(`/login answered ${page.status}`);
  const html = await page.text();
  const entryChunk = html.match(/<script[^>]+type="module"[^>]+src="([^"]+)"/)?.[1];
  if (!entryChunk) throw new Error('/login has no module script');
  const entry = await fetch(baseUrl + entryChunk, { headers: { 'accept-encoding': 'br, gzip' } });
  if (!entry.ok) throw new Error(`${entryChunk} answered ${entry.status}`);
  await entry.arrayBuffer();
  return {
    entryChunk,
    entryEncoding: entry.headers.get('content-encoding') ?? 'none',
    hashedAssetCacheControl: entry.headers.get('cache-control') ?? 'none',
    indexCacheControl: page.headers.get('cache-control') ?? 'none',
  };
}
