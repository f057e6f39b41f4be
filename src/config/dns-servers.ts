import { isIP } from 'node:net';
import { ConfigError } from './config-error.js';

/**
 * `HUB_DNS_SERVERS`: the DNS servers domain verification asks, as `host:port` separated by commas
 * (`127.0.0.1:5353`, `[::1]:53`; a bare address means port 53). Unset: the system resolver's.
 * Addresses only, no names: a resolver needs somewhere to ask before it can look a name up. Which
 * servers are asked is the operator's choice, so no address is refused as private.
 */
export function parseDnsServers(raw: string | undefined): string[] {
  if (raw === undefined || raw.trim() === '') return [];
  return raw.split(',').map((entry) => {
    const item = entry.trim();
    const match = /^\[([^\]]+)\](?::(\d{1,5}))?$/.exec(item) ?? /^([^:]+)(?::(\d{1,5}))?$/.exec(item);
    const address = match?.[1] ?? item;
    const port = match?.[2] === undefined ? 53 : Number(match[2]);
    const family = isIP(address);
    if (!match || family === 0 || (family === 6) !== item.startsWith('[') || port < 1 || port > 65535) {
      throw new ConfigError(
        'HUB_DNS_SERVERS must list IP addresses with an optional port (127.0.0.1:53, [::1]:53) ' +
          `separated by commas, got "${item}"`,
      );
    }
    return family === 6 ? `[${address}]:${port}` : `${address}:${port}`;
  });
}
