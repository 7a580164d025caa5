import { exitOnStartError, start } from './start';

start().catch(exitOnStartError);
