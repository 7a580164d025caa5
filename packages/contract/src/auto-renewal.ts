import { z } from 'zod';
import { text } from './primitives';

/**
 * Auto-renewal: the customer's plan charged again at each period's end, by a mandate the customer
 * authorises at the gateway (Razorpay Subscriptions: UPI Autopay, e-mandate or card).
 */
export const autoRenewalPaths = {
  renewal: '/api/auto-renewal',
} as const;

/** Above this, the RBI asks the customer to authenticate each charge of an e-mandate. */
export const MANDATE_CHARGE_LIMIT_PAISE = 15_000_00;

/** The earliest a pre-debit notice goes before its charge, by the RBI's e-mandate rules. */
export const PRE_DEBIT_NOTICE_HOURS = 24;

export const autoRenewalMessages = {
  fetched: 'Auto-renewal fetched',
  started: 'Authorise the mandate to turn on auto-renewal',
  turnedOff: 'Auto-renewal turned off',
  alreadyOn: 'Auto-renewal is already on. Turn it off before choosing another plan.',
  notOn: 'Auto-renewal is not on',
  choosePlan: 'Choose a plan',
  gatewayAway: 'The payment gateway could not be reached. Please try again.',
} as const;

/** How the mandate pays: UPI Autopay, an e-mandate on a bank account, or a card. */
export const MandateMethodSchema = z.enum(['upi', 'emandate', 'card']);
export type MandateMethod = z.infer<typeof MandateMethodSchema>;

export const mandateMethodLabel: Record<MandateMethod, string> = {
  upi: 'UPI Autopay',
  emandate: 'e-mandate',
  card: 'Card',
};

/**
 * Where the auto-renewal stands:
 * - `authorising`: set up, waiting for the customer to authorise the mandate at the gateway;
 * - `on`: authorised; the next charge is at `nextChargeDate`;
 * - `ending`: turned off; no charge follows, and the plan ends on `planEndDate`;
 * - `retrying`: the last charge failed and the gateway tries again;
 * - `halted`: the retries failed too; no charge follows until the method is updated;
 * - `paused`: charges are paused at the gateway.
 */
export const AutoRenewalStatusSchema = z.enum([
  'authorising',
  'on',
  'ending',
  'retrying',
  'halted',
  'paused',
]);
export type AutoRenewalStatus = z.infer<typeof AutoRenewalStatusSchema>;

export const AutoRenewalSchema = z.object({
  status: AutoRenewalStatusSchema,
  planId: z.string(),
  planName: z.string(),
  /** Null until the mandate is authorised. */
  method: MandateMethodSchema.nullable(),
  /** The most one charge may take, in rupees (GST and handling included). */
  maxAmount: z.number(),
  /** The next debit; null when none is due (ending, halted, paused, or not authorised). */
  nextChargeDate: z.string().nullable(),
  nextChargeAmount: z.number(),
  /** The end of the last period paid for; null before the first charge of a new customer. */
  planEndDate: z.string().nullable(),
  /** The gateway's page to authorise the mandate, or to pay by another method after a failure. */
  authoriseUrl: z.string().nullable(),
});
export type AutoRenewal = z.infer<typeof AutoRenewalSchema>;

export const AutoRenewalResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  /** Null when auto-renewal is off. */
  autoRenewal: AutoRenewalSchema.nullable(),
});
export type AutoRenewalResponse = z.infer<typeof AutoRenewalResponseSchema>;

/** `POST /api/auto-renewal`: the plan to renew; the answer's `authoriseUrl` is where to go next. */
export const StartAutoRenewalRequestSchema = z
  .object({
    planId: text({ error: autoRenewalMessages.choosePlan })
      .min(1, autoRenewalMessages.choosePlan)
      .max(100, autoRenewalMessages.choosePlan),
  })
  .strict();
export type StartAutoRenewalRequest = z.infer<typeof StartAutoRenewalRequestSchema>;
