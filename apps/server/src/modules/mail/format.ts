const inr = new Intl.NumberFormat('en-IN', { style: 'currency', currency: 'INR' });
export const rupees = (paise: number) => inr.format(paise / 100);

/** An absolute link into the portal. */
export const portalUrl = (publicUrl: string, pathAndQuery: string) =>
  `${publicUrl.replace(/\/$/, '')}${pathAndQuery}`;
