/** An absolute link into the portal. */
export const portalUrl = (publicUrl: string, pathAndQuery: string) =>
  `${publicUrl.replace(/\/$/, '')}${pathAndQuery}`;
