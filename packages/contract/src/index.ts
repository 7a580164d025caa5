export * from './common';
export * from './constants';
export * from './money';
export * from './health';
export * from './auth';
export * from './activity';
