// What the sandbox's API takes, checked as Razorpay checks it, and refused in its words.
import { z } from 'zod';
import { text } from '@portal/contract';
import type { ZodFastifySchemaValidationError } from 'fastify-type-provider-zod';

/** What the sandbox keeps is plain text: PostgreSQL stores no NUL, in text or in jsonb. */
const notes = z.record(text(), text()).default({});

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
    notes,
    callback_url: text().url(),
    callback_method: z.literal('get'),
    expire_by: z.number().int().optional(),
  })
  .passthrough();

/** The gateway's ids are alphanumeric with a prefix; other text names nothing it holds. */
const gatewayId = (params?: Parameters<typeof z.string>[0]) =>
  z
    .string(params)
    .max(100)
    .regex(/^[A-Za-z0-9_]+$/, 'is not a valid id');
export const IdParams = z.object({ id: gatewayId() });

const unixSeconds = z
  .string()
  .regex(/^\d{1,10}$/, 'must be a Unix timestamp')
  .transform(Number);

/**
 * The collection options every SDK sends: `count` 1 to 100, default 10; `skip`; `from` and
 * `to`, creation times in Unix seconds, both ends included.
 */
const collectionOptions = {
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
};

/** Razorpay's "fetch all payment links": its own filters, and the collection options. */
export const ListQuerySchema = z
  .object({
    reference_id: text().min(1).max(40).optional(),
    payment_id: gatewayId().optional(),
    ...collectionOptions,
  })
  .strict();

export const PlanListQuerySchema = z.object(collectionOptions).strict();

export const SubscriptionListQuerySchema = z
  .object({ plan_id: gatewayId().optional(), ...collectionOptions })
  .strict();

/** Razorpay's "fetch all invoices", as far as the sandbox's subscription invoices go. */
export const InvoiceListQuerySchema = z
  .object({ subscription_id: gatewayId().optional(), ...collectionOptions })
  .strict();

/** A plan as Razorpay takes one; a daily plan's least interval is checked by the route. */
export const CreatePlanSchema = z
  .object({
    period: z.enum(['daily', 'weekly', 'monthly', 'yearly']),
    interval: z.number().int().min(1).max(100),
    item: z.strictObject({
      name: text().min(1).max(255),
      // Razorpay's least amount: ₹1
      amount: z.number().int().min(100),
      currency: z.literal('INR'),
      description: text().max(2048).optional(),
    }),
    notes,
  })
  .strict();

/** A moment in Unix seconds; the route checks that it is still to come. */
const unixTime = z.number().int().positive().max(9_999_999_999);
/** Razorpay takes its flags as booleans or as 0 and 1. */
const flag = z.union([z.boolean(), z.literal(0), z.literal(1)]);

export const CreateSubscriptionSchema = z
  .object({
    plan_id: gatewayId({
      error: (issue) => (issue.input === undefined ? 'field is required' : undefined),
    }),
    total_count: z.number().int().min(1).max(1000),
    quantity: z.number().int().min(1).max(1000).default(1),
    customer_notify: flag.default(true),
    start_at: unixTime.optional(),
    expire_by: unixTime.optional(),
    notes,
  })
  .strict();

/** Bodies a call may go without: Fastify hands the schema null for a missing one. */
export const CancelSchema = z.object({ cancel_at_cycle_end: flag.optional() }).strict().nullable();
export const PauseSchema = z
  .object({ pause_at: z.literal('now').optional() })
  .strict()
  .nullable();
export const ResumeSchema = z
  .object({ resume_at: z.literal('now').optional() })
  .strict()
  .nullable();

/** The sandbox's own operator call: the next cycle's charge, and how it goes. */
export const ChargeSchema = z
  .object({
    outcome: z.enum(['success', 'failure']),
    /** The customer authenticated this charge, as RBI asks of one above ₹15,000. */
    authenticated: z.boolean().default(false),
  })
  .strict();

/** The hosted authorisation page's form: the method chosen, and the button pressed. */
export const AuthoriseSchema = z
  .object({
    method: z.enum(['upi', 'emandate', 'card']),
    outcome: z.enum(['authorise', 'fail']),
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
