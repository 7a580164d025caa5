export interface IrpErrorDetail {
  ErrorCode: string;
  ErrorMessage: string;
}

/**
 * The IRP's codes the sandbox answers with, as NIC's published error list words them
 * (einvoice1.gst.gov.in/others/geterrorcodes and einv-apisandbox.nic.in): 1005, 1008 and 1010
 * from its vital errors; 2140 the request not as per the schema; 2148, 2150, 2163, 2182, 2189
 * and 2270 as named. For a GSTIN whose check character is wrong and for a document past the
 * 30-day window no code of the list could be confirmed, so those answer 2140 with the reason.
 */
const IRP_ERRORS = {
  invalidToken: ['1005', 'Invalid Token'],
  invalidLogin: ['1008', 'Invalid login credentials'],
  invalidClient: ['1010', 'Invalid Client-ID/Client-Secret'],
  schema: ['2140', 'The request JSON payload is not as per the eInvoice request schema'],
  irnNotFound: ['2148', 'Requested IRN data is not available'],
  duplicate: ['2150', 'Duplicate IRN'],
  futureDate: ['2163', 'The document date should not be future date'],
  assessableTotal: ['2182', 'The taxable value of all items must equal the total taxable value'],
  invoiceTotal: ['2189', 'Invalid total invoice value'],
  cancelLate: ['2270', 'The allowed cancellation time limit is crossed, you cannot cancel the IRN'],
} as const satisfies Record<string, readonly [string, string]>;

type IrpErrorName = keyof typeof IRP_ERRORS;

export const irpError = (name: IrpErrorName, detail?: string): IrpErrorDetail => {
  const [code, message] = IRP_ERRORS[name];
  return { ErrorCode: code, ErrorMessage: detail ? `${message}: ${detail}` : message };
};
