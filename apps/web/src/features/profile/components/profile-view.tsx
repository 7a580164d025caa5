import { useQueryClient } from '@tanstack/react-query';
import { Calendar, KeyRound, LogOut, Mail } from 'lucide-react';
import { useEffect, useState, type ReactNode } from 'react';
import type { CurrentPlan, User } from '@portal/contract';
import { useLogout } from '@/features/auth/api/logout';
import { formatDate, formatYear } from '@/lib/format';
import { errorMessage } from '@/lib/http';
import { useSessionStore } from '@/lib/session-store';
import { Badge } from '@/ui/badge';
import { Button } from '@/ui/button';
import { Card, CardBody, CardHeader } from '@/ui/card';
import { PageTitle } from '@/ui/page-title';
import { Skeleton } from '@/ui/spinner';
import { usePlanCatalogue } from '@/features/plans/api/get-plans';
import { extensionNote } from '@/features/plans/components/plan-standing';
import { MissingUserError, getProfileQueryOptions, useProfile } from '../api/get-profile';
import { ChangePasswordDialog } from './change-password-dialog';
import { BillingDetailsSection } from '@/features/billing/components/billing-details-section';
import { AutoRenewalCard } from '@/features/auto-renewal/components/auto-renewal-card';

const orNotSpecified = (value: string | null | undefined) => value?.trim() || 'Not specified';

function Details({ items }: { items: [label: string, value: ReactNode][] }) {
  return (
    <dl className="grid gap-x-6 gap-y-4 sm:grid-cols-2">
      {items.map(([label, value]) => (
        <div key={label}>
          <dt className="text-sm text-slate-600">{label}</dt>
          <dd className="mt-0.5 break-words text-sm font-medium text-slate-900">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

function PlanDetails({ plan }: { plan: CurrentPlan | null }) {
  if (!plan) {
    return (
      <div className="py-4 text-center">
        <p className="font-medium text-slate-800">No active plan found.</p>
        <p className="mt-1 text-sm text-slate-600">Contact support to subscribe to a plan.</p>
      </div>
    );
  }
  return <CurrentPlanDetails plan={plan} />;
}

function CurrentPlanDetails({ plan }: { plan: CurrentPlan }) {
  // the queued periods come with the plans; the End Date above is already the plan's end
  const note = extensionNote(usePlanCatalogue().data?.current);
  const active = plan.status.toLowerCase() === 'active';
  return (
    <>
      <Details
        items={[
          ['Plan Name', plan.planName],
          ['Amount', plan.formattedAmount],
          ['Duration', plan.formattedDuration],
          ['Start Date', formatDate(plan.startDate)],
          ['End Date', formatDate(plan.endDate)],
          ['Status', <Badge tone={active ? 'green' : 'grey'}>{plan.status}</Badge>],
        ]}
      />
      {note && <p className="mt-4 text-sm text-slate-700">{note}</p>}
    </>
  );
}

function ProfileSkeleton() {
  return (
    <div aria-busy="true">
      <span role="status" className="sr-only">
        Loading
      </span>
      <Skeleton className="h-32 w-full" />
      <div className="mt-6 grid gap-6 lg:grid-cols-2">
        <Skeleton className="h-56 w-full" />
        <Skeleton className="h-56 w-full" />
      </div>
      <Skeleton className="mt-6 h-28 w-full" />
    </div>
  );
}

function ProfileDetails({ user }: { user: User }) {
  const [changingPassword, setChangingPassword] = useState(false);
  const logout = useLogout({ successMessage: 'Logged out successfully!' });
  const since = formatYear(user.created_at);
  const initial = (user.company_name.trim()[0] ?? user.email[0] ?? 'U').toUpperCase();

  return (
    <>
      <Card className="p-5 sm:p-6">
        <div className="flex flex-col gap-4 sm:flex-row sm:items-center">
          <div className="flex min-w-0 flex-1 items-start gap-4 sm:items-center">
            <span
              className="flex h-12 w-12 shrink-0 items-center justify-center rounded-full bg-blue-700 text-xl font-semibold text-white sm:h-16 sm:w-16 sm:text-2xl"
              aria-hidden="true"
            >
              {initial}
            </span>
            <div className="min-w-0 flex-1">
              {/* the whole name, over two lines if need be: it is who the customer is */}
              <h2 className="break-words text-xl font-semibold text-slate-900">
                {user.company_name}
              </h2>
              <p className="mt-1 flex items-center gap-2 text-sm text-slate-600">
                <Mail className="h-4 w-4 shrink-0" aria-hidden="true" />
                <span className="min-w-0 break-words">{user.email}</span>
              </p>
              <div className="mt-2 flex flex-wrap items-center gap-3">
                <Badge tone="blue">{user.customer_type || 'Customer'}</Badge>
                {since && (
                  <span className="flex items-center gap-1 text-sm text-slate-600">
                    <Calendar className="h-4 w-4" aria-hidden="true" />
                    Since {since}
                  </span>
                )}
              </div>
            </div>
          </div>
          <Button
            variant="secondary"
            className="shrink-0 sm:self-center"
            onClick={() => setChangingPassword(true)}
          >
            <KeyRound className="h-5 w-5" aria-hidden="true" />
            Password settings
          </Button>
        </div>
      </Card>

      <div className="mt-6 grid gap-6 lg:grid-cols-2">
        <Card>
          <CardHeader title="General Information" />
          <CardBody>
            <Details
              items={[
                ['Mobile Number', orNotSpecified(user.mobile)],
                ['GST Number', orNotSpecified(user.gstNo)],
                ['Category', user.category?.trim() || 'Not Specified'],
                ['Tally Serial No', orNotSpecified(user.tally_serialno)],
                ['Tally Version', orNotSpecified(user.tally_version)],
              ]}
            />
          </CardBody>
        </Card>
        <Card>
          <CardHeader title="Current Plan" />
          <CardBody>
            <PlanDetails plan={user.plan} />
          </CardBody>
        </Card>
      </div>

      <BillingDetailsSection />
      <AutoRenewalCard className="mt-6" />

      <Card className="mt-6">
        <CardHeader title="Account Overview" />
        <CardBody className="space-y-5">
          <Details
            items={[
              ['User ID', <span className="font-mono text-xs sm:text-sm">{user.id}</span>],
              ['Account Created', formatDate(user.created_at)],
            ]}
          />
          <div className="flex flex-col gap-2 sm:flex-row">
            <Button onClick={() => setChangingPassword(true)}>
              <KeyRound className="h-4 w-4" aria-hidden="true" />
              Change Password
            </Button>
            <Button variant="danger" onClick={() => logout.mutate()} disabled={logout.isPending}>
              <LogOut className="h-4 w-4" aria-hidden="true" />
              Logout
            </Button>
          </div>
        </CardBody>
      </Card>

      <ChangePasswordDialog
        userId={user.id || user._id}
        open={changingPassword}
        onOpenChange={setChangingPassword}
      />
    </>
  );
}

/** Profile Settings (spec §2 Profile screen), loaded through GET /api/auth/profile. */
export function ProfileView() {
  const profile = useProfile();
  const queryClient = useQueryClient();
  const setUser = useSessionStore((s) => s.setUser);

  useEffect(() => {
    // the header and sidebar show the freshest company name and e-mail
    if (profile.data) setUser(profile.data);
  }, [profile.data, setUser]);

  let content: ReactNode;
  if (profile.isPending) content = <ProfileSkeleton />;
  else if (profile.isError) {
    const message =
      profile.error instanceof MissingUserError
        ? profile.error.message
        : errorMessage(profile.error, 'Failed to load profile data');
    content = (
      <Card className="p-6">
        <p role="alert" className="text-sm text-red-800">
          {message}
        </p>
        <Button
          variant="secondary"
          className="mt-4"
          onClick={() => queryClient.resetQueries({ queryKey: getProfileQueryOptions().queryKey })}
        >
          Try again
        </Button>
      </Card>
    );
  } else content = <ProfileDetails user={profile.data} />;

  return (
    <>
      <PageTitle>Profile Settings</PageTitle>
      {content}
    </>
  );
}
