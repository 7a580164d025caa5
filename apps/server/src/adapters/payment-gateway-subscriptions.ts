/** One call of the gateway's API: Basic auth, JSON, and its refusals thrown as GatewayError. */
export type GatewayCall = <T>(method: 'GET' | 'POST', path: string, body?: unknown) => Promise<T>;

/** A plan as Razorpay describes it (only the fields the portal uses). */
export interface GatewayPlan {
  id: string;
  /** With `interval`, how often it is charged: every `interval` days, weeks, months or years. */
  period: 'daily' | 'weekly' | 'monthly' | 'yearly';
  interval: number;
  item: { id: string; name: string; amount: number; currency: string; description: string | null };
  notes: Record<string, string>;
  created_at: number;
}

export type SubscriptionStatus =
  | 'created'
  | 'authenticated'
  | 'active'
  | 'pending'
  | 'halted'
  | 'paused'
  | 'cancelled'
  | 'completed'
  | 'expired';

/** A subscription as Razorpay describes it; its times are Unix seconds. */
export interface GatewaySubscription {
  id: string;
  plan_id: string;
  status: SubscriptionStatus;
  /** Where the customer authorises the mandate. */
  short_url: string;
  customer_id: string | null;
  /** upi, emandate or card, once authorised. */
  payment_method: string | null;
  quantity: number;
  total_count: number;
  paid_count: number;
  remaining_count: number;
  /** Failed attempts since the last successful one. */
  auth_attempts: number;
  current_start: number | null;
  current_end: number | null;
  /** The next charge, when one is due. */
  charge_at: number | null;
  start_at: number | null;
  end_at: number | null;
  ended_at: number | null;
  expire_by: number | null;
  notes: Record<string, string>;
  created_at: number;
}

/**
 * A subscription's invoice as Razorpay describes it: one per charge attempt, `paid` with its
 * payment, or `issued` when the attempt failed. Its times are Unix seconds.
 */
export interface GatewayInvoice {
  id: string;
  subscription_id: string;
  /** The attempt's payment, as its webhooks carried it. */
  payment_id: string | null;
  status: 'paid' | 'issued';
  amount: number;
  amount_paid: number;
  /** The cycle it bills for. */
  billing_start: number | null;
  billing_end: number | null;
  paid_at: number | null;
  created_at: number;
}

/** Razorpay's most invoices to a page. */
const INVOICES_PER_PAGE = 100;

export interface CreatePlanInput {
  period: GatewayPlan['period'];
  interval: number;
  name: string;
  /** Per cycle and unit. */
  amountPaise: number;
  description?: string;
  notes?: Record<string, string>;
}

export interface CreateSubscriptionInput {
  planId: string;
  /** Cycles to charge. */
  totalCount: number;
  quantity?: number;
  /** Seconds since the epoch; without it the first cycle is charged when the customer authorises. */
  startAt?: number;
  /** Seconds since the epoch: the last moment the customer may authorise. */
  expireBy?: number;
  /** Whether Razorpay tells the customer of charges; by default the portal does. */
  customerNotify?: boolean;
  notes?: Record<string, string>;
}

/** Razorpay's Plans and Subscriptions contract, as the portal uses it. */
export interface SubscriptionGateway {
  createPlan(input: CreatePlanInput): Promise<GatewayPlan>;
  createSubscription(input: CreateSubscriptionInput): Promise<GatewaySubscription>;
  fetchSubscription(id: string): Promise<GatewaySubscription>;
  /**
   * Cancels now, or at the end of the current cycle: then the subscription stays active, and
   * nothing in Razorpay's answer says it will end, so the portal keeps that itself.
   */
  cancelSubscription(id: string, options: { atCycleEnd: boolean }): Promise<GatewaySubscription>;
  /** Pauses an active subscription now; the gateway refuses any other. */
  pauseSubscription(id: string): Promise<GatewaySubscription>;
  /** Resumes a paused subscription now; the gateway refuses any other. */
  resumeSubscription(id: string): Promise<GatewaySubscription>;
  /**
   * Every invoice of a subscription, newest first: what reconciles the charges whose webhooks
   * were lost.
   */
  listSubscriptionInvoices(subscriptionId: string): Promise<GatewayInvoice[]>;
}

export function razorpaySubscriptions(call: GatewayCall): SubscriptionGateway {
  const subscription = (id: string, action = '') =>
    `/v1/subscriptions/${encodeURIComponent(id)}${action}`;
  return {
    createPlan: (input) =>
      call<GatewayPlan>('POST', '/v1/plans', {
        period: input.period,
        interval: input.interval,
        item: {
          name: input.name,
          amount: input.amountPaise,
          currency: 'INR',
          ...(input.description ? { description: input.description } : {}),
        },
        notes: input.notes ?? {},
      }),
    createSubscription: (input) =>
      call<GatewaySubscription>('POST', '/v1/subscriptions', {
        plan_id: input.planId,
        total_count: input.totalCount,
        quantity: input.quantity ?? 1,
        customer_notify: input.customerNotify ? 1 : 0,
        notes: input.notes ?? {},
        ...(input.startAt ? { start_at: input.startAt } : {}),
        ...(input.expireBy ? { expire_by: input.expireBy } : {}),
      }),
    fetchSubscription: (id) => call<GatewaySubscription>('GET', subscription(id)),
    cancelSubscription: (id, { atCycleEnd }) =>
      call<GatewaySubscription>('POST', subscription(id, '/cancel'), {
        cancel_at_cycle_end: atCycleEnd ? 1 : 0,
      }),
    pauseSubscription: (id) =>
      call<GatewaySubscription>('POST', subscription(id, '/pause'), { pause_at: 'now' }),
    resumeSubscription: (id) =>
      call<GatewaySubscription>('POST', subscription(id, '/resume'), { resume_at: 'now' }),
    listSubscriptionInvoices: async (subscriptionId) => {
      const invoices = new Map<string, GatewayInvoice>();
      for (let skip = 0; ; skip += INVOICES_PER_PAGE) {
        const query = new URLSearchParams({
          subscription_id: subscriptionId,
          count: String(INVOICES_PER_PAGE),
          skip: String(skip),
        });
        const page = await call<{ items: GatewayInvoice[] }>('GET', `/v1/invoices?${query}`);
        // one raised between two pages moves the later ones on: a page may repeat one
        for (const invoice of page.items) {
          if (!invoices.has(invoice.id)) invoices.set(invoice.id, invoice);
        }
        if (page.items.length < INVOICES_PER_PAGE) return [...invoices.values()];
      }
    },
  };
}
