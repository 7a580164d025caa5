import { z } from 'zod';

export const healthPath = '/api/health';
export const HealthResponseSchema = z.object({
  success: z.literal(true),
  status: z.literal('ok'),
  database: z.literal('ok'),
});
export type HealthResponse = z.infer<typeof HealthResponseSchema>;
