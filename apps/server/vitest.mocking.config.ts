import { serverProject } from './vitest.config';

/** The server's files that mock modules, each in a module graph of its own (vitest.config.ts). */
export default serverProject('server-mocking');
