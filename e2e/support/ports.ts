/** The portal's port in the end-to-end suite; each port has its own data folder. */
export const PORT = Number(process.env.E2E_PORT ?? 3100);

/**
 * The suite's customer service (customer-service.mjs) listens beside the portal, past the ports
 * that the cluster configuration gives its two instances (PORT + 1 and PORT + 2).
 */
export const customerServicePort = (portalPort: number) => portalPort + 3;
