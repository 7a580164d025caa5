import { customerDateTime } from '@portal/contract';
/** An absolute link into the portal. */
export const portalUrl = (publicUrl: string, pathAndQuery: string) =>
  `${publicUrl.replace(/\/$/, '')}${pathAndQuery}`;

/** A time as every mail says it: the customer's date and time, in India's zone. */
export const indiaTime = (iso: string) => `${customerDateTime(new Date(iso))} (India time)`;
