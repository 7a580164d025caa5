import { formatInr } from '@portal/contract';
export const rupees = (paise: number) => formatInr(paise / 100);

/** An absolute link into the portal. */
export const portalUrl = (publicUrl: string, pathAndQuery: string) =>
  `${publicUrl.replace(/\/$/, '')}${pathAndQuery}`;
