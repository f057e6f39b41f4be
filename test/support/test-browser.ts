/**
 * A browser reduced to what sign-in needs: a cookie jar per origin, requests that never follow a
 * redirect on their own (so each hop can be examined), and a map from the origins the service
 * believes it is served at to where it actually listens. Traffic goes to loopback only.
 */
export class TestBrowser {
  private readonly jar = new Map<string, Map<string, string>>();

  constructor(private readonly aliases: Record<string, string> = {}) {}

  /** One GET or form POST; records the cookies it sets. `url` may be an alias's origin. */
  async request(url: string, init: { method?: 'GET' | 'POST'; form?: Record<string, string> } = {}): Promise<Response> {
    const target = new URL(url);
    const origin = target.origin;
    const actual = new URL(target.pathname + target.search, this.aliases[origin] ?? origin);
    if (!['127.0.0.1', '[::1]', 'localhost'].includes(actual.hostname)) {
      throw new Error(`the test browser only visits loopback, not ${actual.hostname}`);
    }
    const headers: Record<string, string> = { accept: 'text/html' };
    const cookies = [...(this.jar.get(origin) ?? new Map()).entries()].map(([k, v]) => `${k}=${v}`).join('; ');
    if (cookies) headers.cookie = cookies;
    let body: string | undefined;
    if (init.form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      headers.origin = origin;
      body = new URLSearchParams(init.form).toString();
    }
    const response = await fetch(actual, { method: init.method ?? 'GET', headers, body, redirect: 'manual' });
    this.remember(origin, response.headers.getSetCookie());
    return response;
  }

  /** The cookie's value this browser holds for an origin. */
  cookie(origin: string, name: string): string | undefined {
    return this.jar.get(origin)?.get(name);
  }

  /** `name=value` for a `Cookie` header, as this browser would send it to the origin. */
  cookieHeader(origin: string): string {
    return [...(this.jar.get(origin) ?? new Map()).entries()].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  setCookie(origin: string, name: string, value: string): void {
    const cookies = this.jar.get(origin) ?? new Map<string, string>();
    cookies.set(name, value);
    this.jar.set(origin, cookies);
  }

  forget(origin: string, name: string): void {
    this.jar.get(origin)?.delete(name);
  }

  private remember(origin: string, setCookies: string[]): void {
    const cookies = this.jar.get(origin) ?? new Map<string, string>();
    for (const line of setCookies) {
      const [pair = '', ...attributes] = line.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      const expired = attributes.some((a) => /^\s*max-age=0\s*$/i.test(a) || /^\s*expires=Thu, 01 Jan 1970/i.test(a));
      if (expired || value === '') cookies.delete(name);
      else cookies.set(name, value);
    }
    this.jar.set(origin, cookies);
  }
}

/** The `Location` of a redirect, resolved against the URL that answered it. */
export function locationOf(response: Response, from: string): string {
  const location = response.headers.get('location');
  if (!location) throw new Error(`expected a redirect from ${from}, got ${response.status}`);
  return new URL(location, from).href;
}
