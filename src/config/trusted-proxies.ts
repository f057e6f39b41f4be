import { isIP } from 'node:net';
import { ConfigError } from './config-error.js';

/**
 * `HUB_TRUSTED_PROXIES`: the load balancers and proxies in front of the service, as addresses or
 * CIDR blocks separated by commas. Unset: none, and a request's client address is its socket's.
 * Anything malformed stops start-up, as a typo here would otherwise trust a client's own header.
 */
export function parseTrustedProxies(raw: string | undefined): string[] {
  if (raw === undefined || raw.trim() === '') return [];
  return raw.split(',').map((entry) => {
    const item = entry.trim();
    const [address = '', prefix, extra] = item.split('/');
    const family = isIP(address);
    const maxPrefix = family === 4 ? 32 : 128;
    const prefixOk = prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= maxPrefix);
    if (family === 0 || !prefixOk || extra !== undefined) {
      throw new ConfigError(
        `HUB_TRUSTED_PROXIES must list IP addresses or CIDR blocks separated by commas, got "${item}"`,
      );
    }
    return item;
  });
}
