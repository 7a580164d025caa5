/**
 * The ceiling: a Fastify route that answers a constant and does nothing else. Run as its own
 * process; it listens on 127.0.0.1 at a free port and prints `listening <url>`.
 */
import Fastify from 'fastify';

const app = Fastify();
app.get('/bare', async () => ({ success: true }));
const url = await app.listen({ host: '127.0.0.1', port: 0 });
console.log(`listening ${url}`);
process.on('SIGTERM', () => void app.close());
