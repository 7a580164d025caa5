// Every module's tables, for Drizzle's typed queries and for drizzle-kit.
export * from '../modules/users/schema';
export * from '../modules/activity/schema';
