import { ActivityFeed } from '@/features/activity/components/activity-feed';

export function Component() {
  return <ActivityFeed />;
}
