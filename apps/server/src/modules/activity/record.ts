import type { ActivityEventType, ActivityStatus } from '@portal/contract';
import type { Executor } from '../../db/client';
import type { Clock } from '../../lib/clock';
import { activityEvents } from './schema';

export interface ActivityInput {
  customerId: string;
  type: ActivityEventType;
  title: string;
  description: string;
  status: ActivityStatus;
  details?: Record<string, string>;
}

/** Records an event; pass the transaction of the change it describes, so both land or neither. */
export async function recordActivity(tx: Executor, clock: Clock, event: ActivityInput) {
  await tx
    .insert(activityEvents)
    .values({ ...event, details: event.details ?? {}, createdAt: clock.now() });
}
