import { FileText, RefreshCw, ShoppingBag } from 'lucide-react';
import { Link } from 'react-router';
import { toast } from '@/lib/toast';
import type { Order } from '@portal/contract';
import { paths } from '@/config/paths';
import { cn } from '@/lib/cn';
import { errorMessage } from '@/lib/http';
import { formatDateTime, formatOrderRef } from '@/lib/format';
import { Button } from '@/ui/button';
import { Card } from '@/ui/card';
import { EmptyState } from '@/ui/empty-state';
import { PagedList, type AddedItems } from '@/ui/paged-list';
import { DataTable, RowActions, type Column } from '@/ui/table';
import { useCheckPaymentStatus } from '../api/check-payment-status';
import { useOrderHistoryPages } from '../api/get-order-history';
import { PaymentStatusBadge } from './payment-status-badge';
import { RetryPaymentButton } from './retry-payment-button';

export const receiptAvailable = (order: Order) =>
  order.paymentStatus === 'Completed' && Boolean(order.receiptUrl);

export function openReceipt(order: Order) {
  if (!receiptAvailable(order)) {
    toast.error('Receipt not available for this order.');
    return;
  }
  // a signed link: the new tab carries no bearer token
  window.open(order.receiptUrl!, '_blank', 'noopener,noreferrer');
  toast.success('Downloading receipt...');
}

function CheckStatusButton({ order }: { order: Order }) {
  const check = useCheckPaymentStatus();
  return (
    <Button
      variant="ghost"
      size="sm"
      busy={check.isPending}
      onClick={() =>
        check.mutate(order._id, {
          onSuccess: (result) => toast.success(result.message),
          onError: (error) => toast.error(errorMessage(error, 'Failed to check payment status')),
        })
      }
    >
      <RefreshCw className={cn('h-4 w-4', check.isPending && 'animate-spin')} aria-hidden="true" />
      {check.isPending ? 'Checking...' : 'Check payment status'}
    </Button>
  );
}

const columns = (highlightId: string | null): Column<Order>[] => [
  {
    header: 'Order ID',
    cell: (order) => (
      <>
        {/* focusable by script only: Load more moves focus to the first order it added */}
        <span
          className="rounded-sm font-mono text-xs focus:outline-none focus-visible:ring-2 focus-visible:ring-blue-600"
          title={order._id}
          tabIndex={-1}
          data-order-id={order._id}
        >
          {formatOrderRef(order._id)}
        </span>
        {order._id === highlightId && (
          // the row carrying this mark is highlighted (see the table's class below)
          <span data-highlight className="block text-xs font-semibold text-blue-800">
            This payment
          </span>
        )}
      </>
    ),
  },
  { header: 'Plan', cell: (order) => order.planId.planName },
  { header: 'Amount', cell: (order) => order.formattedAmount },
  { header: 'Order Date', cell: (order) => formatDateTime(order.orderDate) },
  {
    header: 'Payment Status',
    cell: (order) => (
      <div className="flex flex-wrap items-center gap-2">
        <PaymentStatusBadge status={order.paymentStatus} />
        {order.paymentStatus === 'Pending' && <CheckStatusButton order={order} />}
        {order.paymentStatus === 'Failed' && <RetryPaymentButton order={order} />}
      </div>
    ),
  },
  {
    header: 'Receipt',
    actions: true,
    cell: (order) => {
      const available = receiptAvailable(order);
      return (
        <RowActions>
          <Button
            variant="secondary"
            size="sm"
            aria-disabled={!available}
            aria-label={`Receipt for order ${formatOrderRef(order._id)}`}
            className={cn(!available && 'cursor-not-allowed text-slate-500')}
            onClick={() => openReceipt(order)}
          >
            <FileText className="h-4 w-4" aria-hidden="true" />
            Receipt
          </Button>
          {order.invoiceNumber && (
            // the invoice and any credit notes against it are listed on the Invoices screen
            <Link
              to={paths.invoices}
              className="inline-flex min-h-11 items-center justify-center rounded-sm text-xs whitespace-nowrap text-blue-800 underline underline-offset-2 hover:text-blue-900 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-blue-600 md:min-h-0"
            >
              Invoice {order.invoiceNumber}
            </Link>
          )}
        </RowActions>
      );
    },
  },
];

const addedMessage = (count: number, allShown: boolean) =>
  `${count} more ${count === 1 ? 'order' : 'orders'} loaded.${allShown ? ' All orders are shown.' : ''}`;

// Load more says how many orders it added, and reading and tabbing go on from the first of them
const addedOrders: AddedItems<Order> = {
  message: addedMessage,
  focusSelector: (order) => `[data-order-id="${order._id}"]`,
};

/**
 * Spec §2 Orders screen, Order History tab, a page at a time; `highlightId` marks the order just
 * paid for once its page is loaded (the payment result above the tabs shows it either way).
 */
export function OrderHistory({ highlightId = null }: { highlightId?: string | null }) {
  const query = useOrderHistoryPages();
  return (
    <Card className="[&_tr:has([data-highlight])]:bg-blue-50">
      <PagedList
        query={query}
        itemsOf={(page) => page.orders}
        empty={
          <EmptyState
            icon={<ShoppingBag className="h-10 w-10" />}
            title="No Orders Yet"
            description="Start by creating your first order!"
          />
        }
        errorText="Failed to load order history"
        loadMoreLabel="Load more orders"
        loadingMoreLabel="Loading more orders..."
        added={addedOrders}
      >
        {(orders, { loading, loadingMore }) => (
          <DataTable
            caption="Order history"
            columns={columns(highlightId)}
            rows={orders}
            rowKey={(order) => order._id}
            loading={loading}
            busy={loadingMore}
          />
        )}
      </PagedList>
    </Card>
  );
}
