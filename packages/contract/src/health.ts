import { z } from 'zod';

export const healthPath = '/api/health';
export const HealthResponseSchema = z.object({
  success: z.literal(true),
  status: z.literal('ok'),
  database: z.literal('ok'),
});
export type HealthResponse = z.infer<typeof HealthResponseSchema>;

/** Liveness: the process is up and answers; a load balancer restarts it when this fails. */
export const livePath = '/api/health/live';
export const LiveResponseSchema = z.object({
  success: z.literal(true),
  status: z.literal('live'),
});
export type LiveResponse = z.infer<typeof LiveResponseSchema>;

/**
 * Readiness: the database, the file store and the job queue answer, and the background workers
 * run; a load balancer sends no traffic until then.
 */
export const readyPath = '/api/health/ready';
export const ReadinessCheckSchema = z.enum(['ok', 'unreachable']);
export const ReadinessChecksSchema = z.object({
  database: ReadinessCheckSchema,
  /** Where receipts and installers are kept (a folder or an S3-compatible bucket). */
  files: ReadinessCheckSchema,
  /** The job queue's tables (background jobs and mail). */
  queue: ReadinessCheckSchema,
  /**
   * This instance's background workers (mail delivery, scheduled jobs), on an instance that runs
   * them: an instance whose workers did not start or have stopped is not ready.
   */
  workers: z.enum(['ok', 'not running']).optional(),
});
export type ReadinessChecks = z.infer<typeof ReadinessChecksSchema>;
export const ReadyResponseSchema = z.object({
  success: z.literal(true),
  status: z.literal('ready'),
  checks: ReadinessChecksSchema,
});
export type ReadyResponse = z.infer<typeof ReadyResponseSchema>;
export const NotReadyResponseSchema = z.object({
  success: z.literal(false),
  message: z.string(),
  checks: ReadinessChecksSchema.partial(),
});
export type NotReadyResponse = z.infer<typeof NotReadyResponseSchema>;
