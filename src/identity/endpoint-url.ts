/**
 * Why an issuer or base URL is refused, as a phrase to follow its flag's name, or undefined when
 * it is fine: an absolute https URL without credentials, query or fragment; plain http only when
 * the operator allowed it (`HUB_OUTBOUND_ALLOW_PRIVATE=1`, a provider on loopback in tests).
 * Private addresses are fine either way (an on-premise Keycloak). The URL is never quoted back.
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
  if (url.protocol === 'https:') return undefined;
  if (url.protocol === 'http:' && allowHttp) return undefined;
  return 'must be an https URL (http only with HUB_OUTBOUND_ALLOW_PRIVATE=1)';
}

/** True when requests to this URL must be allowed over plain http (already checked by endpointUrlProblem). */
export const isPlainHttp = (raw: string): boolean => new URL(raw).protocol === 'http:';
