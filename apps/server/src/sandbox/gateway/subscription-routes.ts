import { and, desc, eq } from 'drizzle-orm';
import type { FastifyReply } from 'fastify';
import { SANDBOX_GATEWAY_PREFIX } from '../../adapters/payment-gateway';
import type { App } from '../../lib/types';
import { createdWithin, refuse } from './http';
import { randomId } from './ids';
import {
  CancelSchema,
  ChargeSchema,
  CreatePlanSchema,
  CreateSubscriptionSchema,
  IdParams,
  PauseSchema,
  PlanListQuerySchema,
  ResumeSchema,
  SubscriptionListQuerySchema,
} from './request-schemas';
import {
  cancel,
  nextCharge,
  pause,
  planEntity,
  resume,
  type SandboxSubscriptionStore,
} from './subscriptions';
import { sandboxPlans, sandboxSubscriptions } from './subscriptions-schema';

const NOT_FOUND = 'The id provided does not exist';

/**
 * Razorpay's Plans and Subscriptions API, on the sandbox's authenticated API instance, and the
 * sandbox's own call that runs a subscription's next charge.
 */
export async function subscriptionRoutes(api: App, store: SandboxSubscriptionStore) {
  const { db } = api.deps;
  const { subscriptionEntity, expireLapsed, findPlan, findSubscription, change } = store;
  const v1 = `${SANDBOX_GATEWAY_PREFIX}/v1`;

  /** The answer to a step: the subscription as it now is, or why it was refused. */
  const answer = (reply: FastifyReply, changed: Awaited<ReturnType<typeof change>>) => {
    if (!changed) return refuse(reply, 404, NOT_FOUND);
    if ('refused' in changed) return refuse(reply, 400, changed.refused);
    return changed.entity;
  };

  api.post(
    `${v1}/plans`,
    { schema: { hide: true, body: CreatePlanSchema } },
    async (request, reply) => {
      const input = request.body;
      if (input.period === 'daily' && input.interval < 7) {
        return refuse(reply, 400, 'The interval of a daily plan must be at least 7');
      }
      const [plan] = await db
        .insert(sandboxPlans)
        .values({
          id: randomId('plan'),
          itemId: randomId('item'),
          period: input.period,
          interval: input.interval,
          name: input.item.name,
          amount: input.item.amount,
          currency: input.item.currency,
          description: input.item.description ?? null,
          notes: input.notes,
        })
        .returning();
      return planEntity(plan!);
    },
  );

  api.get(
    `${v1}/plans`,
    { schema: { hide: true, querystring: PlanListQuerySchema } },
    async (request) => {
      const q = request.query;
      const plans = await db
        .select()
        .from(sandboxPlans)
        .where(and(...createdWithin(sandboxPlans.createdAt, q)))
        .orderBy(desc(sandboxPlans.createdAt), desc(sandboxPlans.id))
        .limit(q.count)
        .offset(q.skip);
      return { entity: 'collection', count: plans.length, items: plans.map(planEntity) };
    },
  );

  api.get(
    `${v1}/plans/:id`,
    { schema: { hide: true, params: IdParams } },
    async (request, reply) => {
      const plan = await findPlan(request.params.id);
      return plan ? planEntity(plan) : refuse(reply, 404, NOT_FOUND);
    },
  );

  api.post(
    `${v1}/subscriptions`,
    { schema: { hide: true, body: CreateSubscriptionSchema } },
    async (request, reply) => {
      const input = request.body;
      const plan = await findPlan(input.plan_id);
      if (!plan) return refuse(reply, 400, 'The plan_id provided does not exist');
      const now = Date.now() / 1000;
      for (const field of ['start_at', 'expire_by'] as const) {
        const at = input[field];
        if (at !== undefined && at <= now) {
          return refuse(reply, 400, `The ${field} must be a time still to come`);
        }
      }
      const [row] = await db
        .insert(sandboxSubscriptions)
        .values({
          id: randomId('sub'),
          planId: plan.id,
          status: 'created',
          totalCount: input.total_count,
          quantity: input.quantity,
          gatewayNotifies: Boolean(input.customer_notify),
          startAt: input.start_at === undefined ? null : new Date(input.start_at * 1000),
          expireBy: input.expire_by === undefined ? null : new Date(input.expire_by * 1000),
          notes: input.notes,
        })
        .returning();
      return subscriptionEntity(row!, plan);
    },
  );

  api.get(
    `${v1}/subscriptions`,
    { schema: { hide: true, querystring: SubscriptionListQuerySchema } },
    async (request) => {
      const q = request.query;
      const listed = and(
        ...createdWithin(sandboxSubscriptions.createdAt, q),
        q.plan_id === undefined ? undefined : eq(sandboxSubscriptions.planId, q.plan_id),
      );
      await expireLapsed(db, listed);
      const found = await db
        .select({ row: sandboxSubscriptions, plan: sandboxPlans })
        .from(sandboxSubscriptions)
        .innerJoin(sandboxPlans, eq(sandboxPlans.id, sandboxSubscriptions.planId))
        .where(listed)
        .orderBy(desc(sandboxSubscriptions.createdAt), desc(sandboxSubscriptions.id))
        .limit(q.count)
        .offset(q.skip);
      const items = found.map(({ row, plan }) => subscriptionEntity(row, plan));
      return { entity: 'collection', count: items.length, items };
    },
  );

  api.get(
    `${v1}/subscriptions/:id`,
    { schema: { hide: true, params: IdParams } },
    async (request, reply) => {
      const found = await findSubscription(request.params.id);
      return found ? subscriptionEntity(found.row, found.plan) : refuse(reply, 404, NOT_FOUND);
    },
  );

  api.post(
    `${v1}/subscriptions/:id/cancel`,
    { schema: { hide: true, params: IdParams, body: CancelSchema } },
    async (request, reply) => {
      const atCycleEnd = Boolean(request.body?.cancel_at_cycle_end);
      return answer(reply, await change(request.params.id, cancel(atCycleEnd)));
    },
  );

  api.post(
    `${v1}/subscriptions/:id/pause`,
    { schema: { hide: true, params: IdParams, body: PauseSchema } },
    async (request, reply) => answer(reply, await change(request.params.id, pause)),
  );

  api.post(
    `${v1}/subscriptions/:id/resume`,
    { schema: { hide: true, params: IdParams, body: ResumeSchema } },
    async (request, reply) => answer(reply, await change(request.params.id, resume)),
  );

  /**
   * Not Razorpay's: the sandbox's operator runs a subscription's next charge, which Razorpay
   * makes on its own schedule, and says how it goes. Its webhooks are Razorpay's.
   */
  api.post(
    `${v1}/sandbox/subscriptions/:id/charge`,
    { schema: { hide: true, params: IdParams, body: ChargeSchema } },
    async (request, reply) =>
      answer(reply, await change(request.params.id, nextCharge(request.body))),
  );
}
