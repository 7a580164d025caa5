import { createServer, type IncomingHttpHeaders } from 'node:http';

export interface RecordedRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
}

export interface Answer {
  status: number;
  headers?: Record<string, string>;
  body?: string;
}

/**
 * A real HTTP server on a free local port that answers with `answer` and keeps every request it
 * receives, for tests that prove where the portal's requests (and credentials) go.
 */
export async function recordingServer(answer: (request: RecordedRequest) => Answer) {
  const requests: RecordedRequest[] = [];
  const server = createServer((req, res) => {
    const request = { method: req.method ?? '', url: req.url ?? '', headers: req.headers };
    requests.push(request);
    req.resume();
    req.on('end', () => {
      const { status, headers = {}, body = '' } = answer(request);
      res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
