import { Card, CardBody, CardHeader } from '@/ui/card';
import { Skeleton } from '@/ui/spinner';

export const COMING_UP_TITLE = 'Coming up';

/** The card's placeholder: as tall as a plan row and a consent row, so nothing jumps. */
export function ComingUpSkeleton() {
  return (
    <Card aria-busy="true">
      <CardHeader title={COMING_UP_TITLE} />
      <CardBody>
        {/* the dashboard's own status says it is loading: a second live region would repeat it */}
        <span className="sr-only">Loading what is coming up</span>
        <div aria-hidden="true" className="space-y-4 py-2">
          <Skeleton className="h-10" />
          <Skeleton className="h-10" />
        </div>
      </CardBody>
    </Card>
  );
}
