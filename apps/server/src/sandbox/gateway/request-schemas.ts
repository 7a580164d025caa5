// What the sandbox's API takes, checked as Razorpay checks it, and refused in its words.
import { z } from 'zod';
import { text } from '@portal/contract';
import type { ZodFastifySchemaValidationError } from 'fastify-type-provider-zod';

/** What a link keeps is plain text: PostgreSQL stores no NUL, in text or in jsonb. */
export const CreateLinkSchema = z
  .object({
    amount: z.number().int().positive(),
    currency: z.literal('INR'),
    reference_id: text().min(1).max(40),
    description: text().max(2048).default(''),
    // stored as it came, so a key it does not name is refused rather than kept
    customer: z
      .strictObject({
        name: text().optional(),
        email: text().optional(),
        contact: text().optional(),
      })
      .default({}),
    notes: z.record(text(), text()).default({}),
    callback_url: text().url(),
    callback_method: z.literal('get'),
    expire_by: z.number().int().optional(),
  })
  .passthrough();

/** The gateway's ids are alphanumeric with a prefix; other text names no link. */
const gatewayId = z
  .string()
  .max(100)
  .regex(/^[A-Za-z0-9_]+$/, 'is not a payment link id');
export const IdParams = z.object({ id: gatewayId });

const unixSeconds = z
  .string()
  .regex(/^\d{1,10}$/, 'must be a Unix timestamp')
  .transform(Number);

/**
 * The query of Razorpay's "fetch all payment links": its own filters (`reference_id`,
 * `payment_id`) and the collection options every SDK sends (`count` 1 to 100, default 10;
 * `skip`; `from` and `to`, creation times in Unix seconds, both ends included).
 */
export const ListQuerySchema = z
  .object({
    reference_id: text().min(1).max(40).optional(),
    payment_id: gatewayId.optional(),
    count: z
      .string()
      .regex(/^\d+$/, 'must be a number')
      .transform(Number)
      .pipe(z.number().min(1, 'may not be less than 1').max(100, 'may not be greater than 100'))
      .default(10),
    skip: z
      .string()
      .regex(/^\d{1,9}$/, 'must be a number')
      .transform(Number)
      .default(0),
    from: unixSeconds.optional(),
    to: unixSeconds.optional(),
  })
  .strict();

/**
 * Razorpay's words for a refused field: `The count may not be greater than 100`. The schemas'
 * own words start in lower case; zod's start a sentence of their own.
 */
export function refusedField(issue: ZodFastifySchemaValidationError, context = 'request') {
  if (issue.keyword === 'unrecognized_keys') {
    return `${(issue.params.keys as string[]).join(', ')} is/are not required and should not be sent`;
  }
  const path = issue.instancePath.split('/').slice(1);
  // a key that a record refuses is named by the record, not echoed
  if (issue.keyword === 'invalid_key') path.pop();
  const field = path.join('.') || context;
  const message = issue.message ?? 'is invalid';
  return /^[a-z]/.test(message) ? `The ${field} ${message}` : `The ${field} is invalid: ${message}`;
}
