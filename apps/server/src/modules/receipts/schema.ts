/**
 * The names the order history and the payment tests read an order's receipt and the invoice
 * counters by: a receipt is its order's tax invoice.
 */
export { invoices as receipts, documentCounters as invoiceCounters } from '../invoices/schema';
