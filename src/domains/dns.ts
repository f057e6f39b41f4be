import { Resolver } from 'node:dns/promises';

/** The TXT records at a name, each record's strings joined; what a failed lookup says, in words. */
export type TxtAnswer = { records: string[] } | { failure: string };

/** Looks TXT records up; tests and the service give the same interface its servers. */
export type TxtLookup = (name: string) => Promise<TxtAnswer>;

/** One lookup's wait per try, and tries: an answer or a clear failure within seconds, not a hung request. */
const TIMEOUT_MS = 2_000;
const TRIES = 2;

/** Why a lookup found nothing, by the resolver's error code. */
const FAILURES: Record<string, string> = {
  ENOTFOUND: 'the name does not exist in DNS',
  ENODATA: 'the name has no TXT record',
  ETIMEOUT: 'the DNS servers did not answer in time',
  ECONNREFUSED: 'the DNS servers refused the connection',
  ESERVFAIL: 'the DNS servers could not answer (SERVFAIL)',
  EREFUSED: 'the DNS servers refused the query',
};

/**
 * TXT lookups through the system resolver, or through `servers` (`HUB_DNS_SERVERS`) when given.
 * DNS only: nothing here makes an HTTP call, so no address check applies to the servers asked,
 * which the operator chose.
 */
export function txtLookup(servers: readonly string[]): TxtLookup {
  return async (name) => {
    const resolver = new Resolver({ timeout: TIMEOUT_MS, tries: TRIES });
    if (servers.length) resolver.setServers([...servers]);
    try {
      const answer = await resolver.resolveTxt(name);
      return { records: answer.map((chunks) => chunks.join('')) };
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code ?? '';
      return { failure: FAILURES[code] ?? `the DNS lookup failed (${code || 'unknown error'})` };
    } finally {
      resolver.cancel();
    }
  };
}
