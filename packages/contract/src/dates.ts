/** Every customer is in India today; a browser or server in another zone still shows the Indian date. */
export const CUSTOMER_TIME_ZONE = 'Asia/Kolkata';

/**
 * An Intl formatter made when first used: making one loads locale data, which in a phone's
 * browser costs milliseconds each, and at start-up they would all be made in one long task.
 */
export function formatterOnFirstUse<F>(make: () => F): () => F {
  let made: F | undefined;
  return () => (made ??= make());
}

const customerDateFormat = formatterOnFirstUse(
  () =>
    new Intl.DateTimeFormat('en-IN', {
      day: '2-digit',
      month: '2-digit',
      year: 'numeric',
      timeZone: CUSTOMER_TIME_ZONE,
    }),
);

/** 05/01/2027: the date in India, zero-padded, on every screen, document and mail. */
export const customerDate = (date: Date) => customerDateFormat().format(date);

const customerDateTimeFormat = formatterOnFirstUse(
  () =>
    new Intl.DateTimeFormat('en-IN', {
      day: '2-digit',
      month: '2-digit',
      year: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
      timeZone: CUSTOMER_TIME_ZONE,
    }),
);

/** 05/01/2027, 10:14: the date and time in India, as every screen and mail says it. */
export const customerDateTime = (date: Date) => customerDateTimeFormat().format(date);
