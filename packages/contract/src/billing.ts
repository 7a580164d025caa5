import { z } from 'zod';
import {
  GST_STATES,
  GST_STATE_CODES,
  gstinProblem,
  isGstStateCode,
  stateLabel,
  type GstTaxSplit,
} from './gst';
import { text } from './primitives';

export const billingPaths = {
  details: '/api/billing-details',
} as const;

export const BILLING_LINE_MAX_LENGTH = 100;
export const BILLING_CITY_MAX_LENGTH = 50;

export const billingMessages = {
  saved: 'Billing details saved',
  fetched: 'Billing details fetched',
  gstinRequired: 'GSTIN is required',
  line1Required: 'Address line 1 is required',
  lineTooLong: `Address lines can be at most ${BILLING_LINE_MAX_LENGTH} characters`,
  cityRequired: 'City is required',
  cityTooLong: `City can be at most ${BILLING_CITY_MAX_LENGTH} characters`,
  stateRequired: 'Choose the State from the list',
  pin: 'PIN code must be 6 digits and cannot start with 0',
} as const;

/** The words that say a GSTIN belongs to another State than the one chosen. */
export const gstinStateMismatch = (gstinState: string, chosenState: string) =>
  `This GSTIN is registered in ${stateLabel(gstinState)}, but the State chosen is ${stateLabel(chosenState)}`;

const requiredLine = (required: string, max: number, tooLong: string) =>
  text({ error: required }).trim().min(1, required).max(max, tooLong);

/**
 * `PUT /api/billing-details`: the customer's billing address and GSTIN. The GSTIN is read in
 * capitals without spaces, must pass its check character and must belong to the State chosen.
 */
export const BillingDetailsRequestSchema = z
  .object({
    gstin: text({ error: billingMessages.gstinRequired })
      .trim()
      .toUpperCase()
      .min(1, billingMessages.gstinRequired)
      .superRefine((gstin, ctx) => {
        const problem = gstin === '' ? null : gstinProblem(gstin);
        if (problem) ctx.addIssue({ code: 'custom', message: problem });
      }),
    addressLine1: requiredLine(
      billingMessages.line1Required,
      BILLING_LINE_MAX_LENGTH,
      billingMessages.lineTooLong,
    ),
    addressLine2: text()
      .trim()
      .max(BILLING_LINE_MAX_LENGTH, billingMessages.lineTooLong)
      .optional()
      .default(''),
    city: requiredLine(
      billingMessages.cityRequired,
      BILLING_CITY_MAX_LENGTH,
      billingMessages.cityTooLong,
    ),
    stateCode: text({ error: billingMessages.stateRequired }).refine(isGstStateCode, {
      message: billingMessages.stateRequired,
    }),
    pin: text({ error: billingMessages.pin })
      .trim()
      .regex(/^[1-9]\d{5}$/, billingMessages.pin),
  })
  .superRefine((details, ctx) => {
    const gstinState = details.gstin.slice(0, 2);
    if (
      gstinProblem(details.gstin) === null &&
      isGstStateCode(details.stateCode) &&
      gstinState !== details.stateCode
    ) {
      ctx.addIssue({
        code: 'custom',
        path: ['gstin'],
        message: gstinStateMismatch(gstinState, details.stateCode),
      });
    }
  });
export type BillingDetailsRequest = z.input<typeof BillingDetailsRequestSchema>;
export type BillingDetailsInput = z.output<typeof BillingDetailsRequestSchema>;

/** A billing address as stored: on the profile, and copied onto each order. */
export const BillingAddressSchema = z.object({
  addressLine1: z.string(),
  addressLine2: z.string().nullable(),
  city: z.string(),
  stateCode: z.string(),
  pin: z.string(),
});
export type BillingAddress = z.infer<typeof BillingAddressSchema>;

export const BillingDetailsSchema = BillingAddressSchema.extend({
  gstin: z.string(),
  stateName: z.string(),
  updatedAt: z.string(),
});
export type BillingDetails = z.infer<typeof BillingDetailsSchema>;

/**
 * `GET /api/billing-details`: the saved details (null until the customer gives them), the GSTIN
 * registered at sign-up to start the form with, and the seller's State, which with the place of
 * supply decides CGST + SGST or IGST.
 */
export const BillingDetailsResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  billingDetails: BillingDetailsSchema.nullable(),
  registeredGstin: z.string(),
  supplierStateCode: z.string(),
});
export type BillingDetailsResponse = z.infer<typeof BillingDetailsResponseSchema>;

export const SaveBillingDetailsResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  billingDetails: BillingDetailsSchema,
});
export type SaveBillingDetailsResponse = z.infer<typeof SaveBillingDetailsResponseSchema>;

/**
 * What an order keeps of the billing details when it is created, so that a later edit of the
 * profile never changes a past order or its invoice. `address` is null for an order placed
 * before the customer gave one (decision 037).
 */
export interface OrderBillingSnapshot {
  gstin: string;
  address: BillingAddress | null;
  /** The State code of the place of supply. */
  placeOfSupply: string;
  /** The seller's State code when the order was created. */
  supplierStateCode: string;
  taxSplit: GstTaxSplit;
}

/** The States as the form lists them: "Karnataka (29)". */
export const GST_STATE_OPTIONS = GST_STATE_CODES.map((code) => ({
  code,
  name: GST_STATES[code]!,
  label: stateLabel(code),
}));
