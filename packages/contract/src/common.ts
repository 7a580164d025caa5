import { z } from 'zod';
import { IdSchema } from './primitives';

/** Every error the API answers: `{ success: false, message, error? }`. */
export const ErrorResponseSchema = z.object({
  success: z.literal(false),
  message: z.string(),
  error: z.string().optional(),
});
export type ErrorResponse = z.infer<typeof ErrorResponseSchema>;

/** Answer of calls whose body the client does not use beyond the flag and the message. */
export const MessageResponseSchema = z.object({
  success: z.boolean(),
  message: z.string(),
});
export type MessageResponse = z.infer<typeof MessageResponseSchema>;

/** Answers that carry only a confirmation the client may show. */
export const SuccessMessageResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
});
export type SuccessMessageResponse = z.infer<typeof SuccessMessageResponseSchema>;

export const IdParamsSchema = z.object({ id: IdSchema });
