import { CUSTOMER_TIME_ZONE } from '@portal/contract';

const dateTime = new Intl.DateTimeFormat('en-IN', {
  day: '2-digit',
  month: '2-digit',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
  timeZone: CUSTOMER_TIME_ZONE,
});

/** 05/01/2027, 10:14: the date and time in India, as every screen and mail says it. */
export const customerDateTime = (date: Date) => dateTime.format(date);

const inr = new Intl.NumberFormat('en-IN', { style: 'currency', currency: 'INR' });
export const rupees = (paise: number) => inr.format(paise / 100);

/** `#4FA65D`: how an order is named on every screen and in mail. */
export const orderLabel = (orderId: string) => `#${orderId.slice(0, 6).toUpperCase()}`;

/** An absolute link into the portal. */
export const portalUrl = (publicUrl: string, pathAndQuery: string) =>
  `${publicUrl.replace(/\/$/, '')}${pathAndQuery}`;
