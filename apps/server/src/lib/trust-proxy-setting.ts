import { isIP } from 'node:net';
import { z } from 'zod';

// The TRUST_PROXY setting, read by loadConfig.

const ONE_PROXY_EXAMPLE =
  'set TRUST_PROXY=127.0.0.1 for a reverse proxy on this machine, or to the addresses or CIDRs of your proxies, comma-separated';
const FALSE_WORDS = ['', 'false', '0', 'no', 'off', 'n', 'disabled'];
const TRUE_WORDS = ['true', 'yes', 'on', 'y', 'enabled'];
/** proxy-addr's names for address ranges, which Fastify's trustProxy accepts beside addresses. */
const RANGE_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

function isProxyAddress(entry: string): boolean {
  if (RANGE_NAMES.includes(entry)) return true;
  const [address = '', prefix, ...rest] = entry.split('/');
  const version = isIP(address);
  if (!version || rest.length > 0) return false;
  if (prefix === undefined) return true;
  // proxy-addr (Fastify's) refuses a /0, which would trust every address anyway
  return (
    /^\d{1,3}$/.test(prefix) && Number(prefix) >= 1 && Number(prefix) <= (version === 4 ? 32 : 128)
  );
}

/**
 * The reverse proxies whose X-Forwarded-For entry is believed, in the form Fastify's trustProxy
 * takes: false, or a comma-separated list of addresses and CIDRs. A bare `true` would believe
 * whatever the client writes; a hop count cannot tell the proxy from a client that connects
 * directly (Fastify 5.12 ignores one for that reason), so both are refused.
 */
export const TrustProxySchema = z
  .string()
  .optional()
  .transform((raw, ctx): string | false => {
    const value = (raw ?? '').trim();
    const lower = value.toLowerCase();
    if (FALSE_WORDS.includes(lower)) return false;
    const refuse = (message: string) => {
      ctx.addIssue({ code: 'custom', message });
      return z.NEVER;
    };
    if (TRUE_WORDS.includes(lower)) {
      return refuse(
        `must name the proxies to trust, not "${value}", which lets every client choose its own address: ${ONE_PROXY_EXAMPLE}`,
      );
    }
    if (/^\d+$/.test(value)) {
      return refuse(
        `must name the proxies to trust, not a hop count ("${value}"), which cannot tell the proxy from a client that connects directly: ${ONE_PROXY_EXAMPLE}`,
      );
    }
    const entries = value.split(',').map((entry) => entry.trim());
    const bad = entries.find((entry) => !isProxyAddress(entry));
    if (bad !== undefined) {
      return refuse(
        `has "${bad}", which is not an IP address, a CIDR, loopback, linklocal or uniquelocal`,
      );
    }
    return entries.join(',');
  });
