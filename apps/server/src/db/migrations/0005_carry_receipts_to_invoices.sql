-- The tax invoices issued before the invoices table keep their numbers, dates and files. Their
-- Internet Handling Charge stood outside the taxable value (decision 038), so it is carried as
-- untaxed; their GST is split as the default supplier GSTIN (state 29) split it then.
INSERT INTO "invoices" ("id", "invoice_number", "customer_id", "order_id", "issued_at", "customer_gstin", "place_of_supply", "taxable_paise", "cgst_paise", "sgst_paise", "igst_paise", "untaxed_paise", "total_paise", "file_key")
SELECT r."id", r."invoice_number", o."customer_id", r."order_id", r."issued_at", c."gst_no", substr(c."gst_no", 1, 2), o."base_paise",
  CASE WHEN substr(c."gst_no", 1, 2) = '29' THEN round(o."gst_paise" / 2.0) ELSE 0 END,
  CASE WHEN substr(c."gst_no", 1, 2) = '29' THEN o."gst_paise" - round(o."gst_paise" / 2.0) ELSE 0 END,
  CASE WHEN substr(c."gst_no", 1, 2) = '29' THEN 0 ELSE o."gst_paise" END,
  o."handling_paise", o."total_paise", r."file_key"
FROM "receipts" r
JOIN "orders" o ON o."id" = r."order_id"
JOIN "customers" c ON c."id" = o."customer_id";
--> statement-breakpoint
-- one series per financial year: the count goes on under the shorter number ('2026-27' → 'INV/26-27')
INSERT INTO "document_counters" ("series", "last_number")
SELECT 'INV/' || substr("financial_year", 3, 2) || '-' || substr("financial_year", 6, 2), "last_number"
FROM "invoice_counters";
