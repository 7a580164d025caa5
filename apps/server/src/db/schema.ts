// Every module's tables, for Drizzle's typed queries and for drizzle-kit.
export * from '../modules/users/schema';
export * from '../modules/auth/schema';
export * from '../modules/activity/schema';
export * from '../modules/plugins/schema';
export * from '../modules/plans/schema';
export * from '../modules/orders/schema';
export * from '../modules/billing/schema';
export * from '../modules/payments/schema';
export * from '../modules/invoices/schema';
export * from '../sandbox/gateway/schema';
export * from '../modules/partners/schema';
export * from '../modules/consents/schema';
export * from '../sandbox/bank/schema';
export * from '../modules/mail/schema';
export * from '../modules/reminders/schema';
export * from '../modules/security/schema';
export * from '../modules/two-factor/schema';
