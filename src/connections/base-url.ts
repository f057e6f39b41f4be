/**
 * Why a provider's base URL is refused, as a phrase to follow its name ("baseUrl …",
 * "--base-url …"), or undefined when it is acceptable. Tokens must travel over TLS; plain
 * http is for a provider on this machine only (a local proxy or a test double). The URL is
 * never quoted back: a careless one can carry a password.
 */
export function baseUrlProblem(raw: string): string | undefined {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'must be an absolute URL';
  }
  if (url.username || url.password) return 'must not carry a user name or password';
  if (url.protocol === 'https:') return undefined;
  if (url.protocol === 'http:' && isLoopbackHost(url.hostname)) return undefined;
  return 'must be an https URL (http only for loopback hosts: localhost, 127.0.0.0/8, ::1)';
}

/** The URL parser has already normalized the host: lower case, IPv4 in dotted decimal, IPv6 compressed. */
function isLoopbackHost(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127(\.\d{1,3}){3}$/.test(hostname);
}
