import { schemeProblem } from '../outbound/client.js';

/**
 * Why an issuer or base URL is refused, as a phrase to follow its flag's name, or undefined when
 * it is fine: an absolute URL without credentials, query or fragment, under the outbound scheme
 * rule (https; plain http only with `HUB_OUTBOUND_ALLOW_PRIVATE=1`, a provider on loopback in
 * tests). Private addresses are fine either way (an on-premise Keycloak). Applied by
 * `identity-provider set` and again by every sign-in. The URL is never quoted back.
 */
export function endpointUrlProblem(raw: string, allowHttp: boolean): string | undefined {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'must be an absolute https URL';
  }
  if (url.username || url.password) return 'must not carry a user name or password';
  if (url.search || url.hash) return 'must not carry a query or fragment';
  return schemeProblem(url, allowHttp);
}

/** True when requests to this URL must be allowed over plain http (already checked by endpointUrlProblem). */
export const isPlainHttp = (raw: string): boolean => new URL(raw).protocol === 'http:';
