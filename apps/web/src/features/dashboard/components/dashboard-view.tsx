import {
  ArrowRight,
  CreditCard,
  FileCheck2,
  Layers,
  ShieldCheck,
  UserRound,
  type LucideIcon,
} from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import {
  DASHBOARD_ACTIVITY_LIMIT,
  DASHBOARD_ACTIVITY_ORDERS,
  type DashboardCounters,
  type User,
} from '@portal/contract';
import { paths } from '@/config/paths';
import { LazyAutoRenewalNotice } from '@/features/auto-renewal/components/lazy-auto-renewal-notice';
import { LazyComingUpCard } from '@/features/coming-up/components/lazy-coming-up-card';
import { LastSignIn } from '@/features/security/components/last-sign-in';
import { LazyPrivacyNoticeCard } from '@/features/privacy/components/lazy-privacy-notice-card';
import { LazyAppInvitationCard } from '@/features/two-factor/components/lazy-app-invitation-card';
import { formatDate, formatNumber } from '@/lib/format';
import { Card, CardBody, CardHeader } from '@/ui/card';
import type { DashboardRow } from '../utils/dashboard-data';
import { ActivityCard } from './activity-card';
import { Value } from './placeholder';

export interface DashboardViewProps {
  /** The signed-in customer's profile; undefined while loading or when it failed. */
  user?: User | null;
  /** Company name known from the session, so the heading does not wait for the profile. */
  sessionCompanyName?: string;
  counters: DashboardCounters;
  recentOrders: readonly DashboardRow[];
  recentActivity: readonly DashboardRow[];
  /** Said under Active Until when a later period is queued. */
  planNote?: string | null;
  isLoading: boolean;
  isError: boolean;
}

function StatCard({
  to,
  label,
  value,
  detail,
  icon: Icon,
  tone,
  loading,
}: {
  to: string;
  label: string;
  value: string;
  detail: string;
  icon: LucideIcon;
  tone: string;
  loading: boolean;
}) {
  return (
    <Link
      to={to}
      className="group block rounded-lg border border-slate-200 bg-white p-5 shadow-sm transition-shadow hover:shadow-md focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600"
    >
      <div className="flex items-start justify-between gap-3">
        <div>
          <p className="text-sm font-medium text-slate-600">{label}</p>
          <p className="mt-1 text-3xl font-bold text-slate-900">
            <Value loading={loading}>{value}</Value>
          </p>
          <p className="mt-1 text-sm text-slate-600">
            <Value loading={loading} width="w-24">
              {detail}
            </Value>
          </p>
        </div>
        <span className={`rounded-lg p-2.5 ${tone}`} aria-hidden="true">
          <Icon className="h-5 w-5" />
        </span>
      </div>
    </Link>
  );
}

function Details({ rows, loading }: { rows: [string, ReactNode][]; loading: boolean }) {
  return (
    <dl className="divide-y divide-slate-100">
      {rows.map(([term, value]) => (
        <div key={term} className="flex items-center justify-between gap-4 py-2.5 text-sm">
          <dt className="text-slate-600">{term}</dt>
          {/* the whole rest of the row, so that a value arriving does not move its box */}
          <dd className="flex-1 text-right font-medium text-slate-900">
            <Value loading={loading} width="w-32">
              {value}
            </Value>
          </dd>
        </div>
      ))}
    </dl>
  );
}

const quickActions = [
  { to: paths.consents, title: 'View Consents', text: 'Manage API permissions', icon: ShieldCheck },
  { to: paths.plans, title: 'Browse Plans', text: 'Explore available options', icon: Layers },
  { to: paths.profile, title: 'Update Profile', text: 'Manage account details', icon: UserRound },
];

/** Spec §2 Dashboard, from data already loaded and derived. */
export function DashboardView({
  user,
  sessionCompanyName,
  counters,
  recentOrders,
  recentActivity,
  planNote,
  isLoading,
  isError,
}: DashboardViewProps) {
  const companyName = user?.company_name || sessionCompanyName || 'User';
  const na = (value: string | null | undefined) => (value ? value : 'N/A');
  const plan = user?.plan ?? null;
  const count = (n: number) => formatNumber(n);
  const stats = [
    {
      to: paths.consents,
      label: 'Total Consents',
      value: count(counters.totalConsents),
      detail: `${count(counters.activeConsents)} approved`,
      icon: FileCheck2,
      tone: 'bg-blue-50 text-blue-700',
    },
    {
      to: paths.consents,
      label: 'Active Consents',
      value: count(counters.activeConsents),
      detail: `${count(counters.pendingConsents)} pending`,
      icon: ShieldCheck,
      tone: 'bg-green-50 text-green-700',
    },
    {
      to: paths.orders,
      label: 'Total Orders',
      value: count(counters.totalOrders),
      detail: `${count(counters.completedOrders)} completed`,
      icon: CreditCard,
      tone: 'bg-purple-50 text-purple-700',
    },
    {
      to: paths.plans,
      label: 'Available Plans',
      value: counters.totalPlans === null ? 'N/A' : count(counters.totalPlans),
      detail: 'View All',
      icon: Layers,
      tone: 'bg-amber-50 text-amber-800',
    },
  ];
  const activityCards = [
    {
      title: 'Recent Orders',
      viewAll: paths.orders,
      what: 'orders',
      items: recentOrders,
      capacity: DASHBOARD_ACTIVITY_ORDERS,
      empty: 'No recent orders',
    },
    {
      title: 'All Recent Activity',
      viewAll: paths.activity,
      what: 'activity',
      items: recentActivity,
      capacity: DASHBOARD_ACTIVITY_LIMIT,
      empty: 'No recent activity to display.',
    },
  ];

  return (
    <div className="space-y-6" aria-busy={isLoading}>
      <h1 className="text-2xl font-bold text-slate-900">Welcome back, {companyName}!</h1>
      <LastSignIn />
      {isLoading && (
        <span role="status" className="sr-only">
          Loading dashboard
        </span>
      )}
      {isError && (
        <p
          role="alert"
          className="rounded-md border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-800"
        >
          Failed to load dashboard data.
        </p>
      )}
      {/* a failed automatic payment: said before everything else, and only then */}
      <LazyAutoRenewalNotice />

      <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
        {stats.map((stat) => (
          <StatCard key={stat.label} {...stat} loading={isLoading} />
        ))}
      </div>

      <LazyComingUpCard />
      <div className="grid gap-6 lg:grid-cols-2">
        <Card>
          <CardHeader title="Account Overview" />
          <CardBody>
            <Details
              loading={isLoading}
              rows={[
                ['Company', na(user?.company_name)],
                ['Customer Type', na(user?.customer_type)],
                ['GST Number', na(user?.gstNo)],
                ['Tally Version', na(user?.tally_version)],
              ]}
            />
          </CardBody>
        </Card>

        <Card>
          <CardHeader title="Your Current Plan" />
          <CardBody>
            {isLoading || plan ? (
              <>
                <Details
                  loading={isLoading}
                  rows={[
                    ['Plan Name', plan?.planName],
                    ['Amount', plan?.formattedAmount],
                    ['Duration', plan?.formattedDuration],
                    ['Active Until', formatDate(plan?.endDate)],
                  ]}
                />
                {plan && planNote && <p className="mt-3 text-sm text-slate-700">{planNote}</p>}
              </>
            ) : (
              <div className="py-4 text-center">
                <p className="font-medium text-slate-900">No active plan found.</p>
                <p className="mt-1 text-sm text-slate-600">
                  Contact support to subscribe to a plan.
                </p>
                <Link
                  to={paths.plans}
                  className="mt-4 inline-flex h-10 items-center rounded-md bg-blue-700 px-4 text-sm font-medium text-white hover:bg-blue-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600"
                >
                  Browse Plans
                </Link>
              </div>
            )}
          </CardBody>
        </Card>

        {activityCards.map((card) => (
          <ActivityCard key={card.title} {...card} loading={isLoading} />
        ))}
      </div>

      <Card>
        <CardHeader title="Quick Actions" />
        <CardBody>
          <ul className="grid gap-4 sm:grid-cols-3">
            {quickActions.map(({ to, title, text, icon: Icon }) => (
              <li key={title}>
                <Link
                  to={to}
                  className="flex items-center gap-3 rounded-lg border border-slate-200 p-4 hover:border-blue-300 hover:bg-blue-50/50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600"
                >
                  <span className="rounded-lg bg-slate-100 p-2.5 text-slate-700" aria-hidden="true">
                    <Icon className="h-5 w-5" />
                  </span>
                  <span className="flex-1">
                    <span className="block text-sm font-medium text-slate-900">{title}</span>
                    <span className="block text-sm text-slate-600">{text}</span>
                  </span>
                  <ArrowRight className="h-4 w-4 text-slate-400" aria-hidden="true" />
                </Link>
              </li>
            ))}
          </ul>
        </CardBody>
      </Card>
      {/* last: appearing once their status answers, they move nothing already drawn */}
      <LazyPrivacyNoticeCard />
      <LazyAppInvitationCard />
    </div>
  );
}
