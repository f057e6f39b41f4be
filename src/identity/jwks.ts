import { MINUTE_MS } from '../config/clock.js';
import type { OutboundClient } from '../outbound/client.js';

/** How long a provider's key set is used before it is fetched again, whatever the tokens name. */
const JWKS_TTL_MS = 10 * MINUTE_MS;
/** The most of a key set read: a provider publishes a handful of keys, a few KiB. */
const JWKS_MAX_BYTES = 64 * 1024;

/** A provider's published keys (RFC 7517), as the JWKS endpoint answers them. */
export interface KeySet {
  keys: Array<Record<string, unknown>>;
}

/**
 * The providers' signing keys, fetched through the outbound client (so its address rules apply to
 * a `jwks_uri` as to any URL a provider's discovery document names) and kept per `jwks_uri`. A key
 * set is fetched again when it is older than its time to live, or when an ID token names a `kid`
 * it lacks: a provider that rotated its keys is followed at its next sign-in. Only ID tokens the
 * provider's own token endpoint answered name a `kid` here, so an outsider cannot make it refetch.
 * Calls for one `jwks_uri` made while a fetch is under way share that fetch.
 */
export class JwksCache {
  private readonly sets = new Map<string, { at: number; keys: KeySet }>();
  private readonly fetching = new Map<string, Promise<KeySet>>();

  constructor(private readonly outbound: OutboundClient) {}

  /** The key set at `jwksUri`, holding `kid` if the provider publishes it. */
  async keysFor(jwksUri: string, kid: string | undefined): Promise<KeySet> {
    const cached = this.sets.get(jwksUri);
    const fresh = cached && Date.now() - cached.at < JWKS_TTL_MS;
    if (cached && fresh && (kid === undefined || cached.keys.keys.some((key) => key.kid === kid))) return cached.keys;
    let fetching = this.fetching.get(jwksUri);
    if (!fetching) {
      fetching = this.fetch(jwksUri).finally(() => this.fetching.delete(jwksUri));
      this.fetching.set(jwksUri, fetching);
    }
    return fetching;
  }

  private async fetch(jwksUri: string): Promise<KeySet> {
    const result = await this.outbound.send({
      url: jwksUri,
      method: 'GET',
      headers: { accept: 'application/json, application/jwk-set+json' },
      answerBytes: JWKS_MAX_BYTES + 1,
    });
    if (result.outcome !== 'answered') throw new Error(`the key set could not be fetched: ${result.reason}`);
    if (result.status !== 200) throw new Error(`the key set answered ${result.status}`);
    if (Buffer.byteLength(result.body) > JWKS_MAX_BYTES) throw new Error('the key set is too large');
    const keys = parseKeySet(result.body);
    this.sets.set(jwksUri, { at: Date.now(), keys });
    return keys;
  }
}

function parseKeySet(body: string): KeySet {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    throw new Error('the key set is not JSON');
  }
  const keys = (parsed as { keys?: unknown } | null)?.keys;
  if (!Array.isArray(keys) || !keys.every((key) => typeof key === 'object' && key !== null)) {
    throw new Error('the key set has no "keys" list');
  }
  return { keys: keys as KeySet['keys'] };
}

/** The `kid` in the header of an ID token (a JWS in compact form), if it names one. */
export function kidOf(idToken: unknown): string | undefined {
  if (typeof idToken !== 'string') return undefined;
  try {
    const header = JSON.parse(Buffer.from(idToken.split('.', 1)[0]!, 'base64url').toString('utf8')) as {
      kid?: unknown;
    };
    return typeof header.kid === 'string' ? header.kid : undefined;
  } catch {
    return undefined;
  }
}
