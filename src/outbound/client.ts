import { lookup as dnsLookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { isIP } from 'node:net';
import { type AddressClass, classifyAddress } from './address-class.js';

/** One address a name resolved to, as `dns.lookup` gives it. */
export interface ResolvedAddress {
  address: string;
  family: number;
}

/** Turns a host name into addresses; tests give a stub so no name is ever looked up for real. */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemResolver: Resolver = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

/** A URL the client may call, with the address it checked and will connect to. */
export interface CheckedTarget {
  url: URL;
  address: ResolvedAddress;
}

/** Why a URL is refused; `reason` is a phrase safe to show the admin who entered the URL. */
export interface Refusal {
  refused: true;
  reason: string;
}

export interface OutboundRequest {
  url: string;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
  /** Bytes of the answer kept, when this call needs more than the client's default (a key set). */
  answerBytes?: number;
}

/** What a call came to: an answer (any status), a refusal before any packet was sent, or a failure on the way. */
export type OutboundResult =
  | { outcome: 'answered'; status: number; body: string; durationMs: number }
  | { outcome: 'refused'; reason: string; durationMs: 0 }
  | { outcome: 'failed'; reason: string; durationMs: number };

export interface OutboundOptions {
  /** `HUB_OUTBOUND_ALLOW_PRIVATE=1`: any address, and plain http (tests, on-premise receivers). */
  allowPrivate: boolean;
  resolver?: Resolver;
  /** The whole call, connection to the last byte kept; a receiver that takes longer has failed. */
  timeoutMs?: number;
  /** Bytes of the answer kept; the rest is never read. */
  answerBytes?: number;
}

export const OUTBOUND_TIMEOUT_MS = 10_000;
export const OUTBOUND_ANSWER_BYTES = 1024;

const CLASS_PHRASES: Record<AddressClass, string> = {
  loopback: 'a loopback address',
  private: 'a private network address',
  'link-local': 'a link-local address',
  cgnat: 'a carrier-grade NAT address',
  multicast: 'a multicast address',
  unspecified: 'an unspecified address',
  'unique-local': 'a unique-local address',
  reserved: 'a reserved address',
};

/** The operator's setting that lifts the outbound rule, as a refusal names it. */
export const ALLOW_PRIVATE_SETTING = 'HUB_OUTBOUND_ALLOW_PRIVATE=1';

/**
 * The scheme half of the outbound rule, for every URL the server calls out to (webhooks, the
 * identity providers it signs people in through): https, and plain http only when the operator
 * allowed it. Checked where a URL is saved and again where it is called, so a URL saved under
 * another setting is never called over http.
 */
export function schemeProblem(url: URL, allowPrivate: boolean): string | undefined {
  if (url.protocol === 'https:' || (allowPrivate && url.protocol === 'http:')) return undefined;
  return allowPrivate
    ? 'must be an http or https URL'
    : `must be an https URL (http only with ${ALLOW_PRIVATE_SETTING})`;
}

/**
 * The one way the server calls out to a URL someone else chose. A URL is checked after its name
 * is resolved, and the connection goes to the very address that was checked (the socket's
 * `lookup` answers with it), so a name cannot resolve to a public address for the check and to
 * an internal one for the connection. Redirects are answers, never followed; the whole call has
 * a deadline; only the first bytes of the answer are read.
 */
export class OutboundClient {
  private readonly resolver: Resolver;
  private readonly timeoutMs: number;
  private readonly answerBytes: number;

  constructor(private readonly options: OutboundOptions) {
    this.resolver = options.resolver ?? systemResolver;
    this.timeoutMs = options.timeoutMs ?? OUTBOUND_TIMEOUT_MS;
    this.answerBytes = options.answerBytes ?? OUTBOUND_ANSWER_BYTES;
  }

  /** The address a call to `raw` would reach, or why the URL may not be called. */
  async check(raw: string): Promise<CheckedTarget | Refusal> {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      return refusal('is not an absolute URL');
    }
    const allowPrivate = this.options.allowPrivate;
    const scheme = schemeProblem(url, allowPrivate);
    if (scheme) return refusal(scheme);
    if (url.username || url.password) return refusal('must not carry a user name or password');
    const hostname = bareHost(url.hostname);
    let addresses: ResolvedAddress[];
    if (isIP(hostname)) addresses = [{ address: hostname, family: isIP(hostname) }];
    else {
      try {
        addresses = await this.resolver(hostname);
      } catch {
        return refusal('names a host that does not resolve');
      }
    }
    if (addresses.length === 0) return refusal('names a host that does not resolve');
    if (!allowPrivate) {
      // Every address must pass: otherwise the connection could be steered to the one that does not.
      for (const { address } of addresses) {
        const addressClass = classifyAddress(address);
        if (addressClass)
          return refusal(`resolves to ${CLASS_PHRASES[addressClass]} (allowed only with ${ALLOW_PRIVATE_SETTING})`);
      }
    }
    return { url, address: addresses[0]! };
  }

  /** Checks the URL, then makes the call to the checked address. Never throws. */
  async send(request: OutboundRequest): Promise<OutboundResult> {
    const target = await this.check(request.url);
    if ('refused' in target) return { outcome: 'refused', reason: target.reason, durationMs: 0 };
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    try {
      const { status, body } = await this.call(target, request);
      return { outcome: 'answered', status, body, durationMs: elapsed() };
    } catch (err) {
      return { outcome: 'failed', reason: failureReason(err), durationMs: elapsed() };
    }
  }

  private call(target: CheckedTarget, request: OutboundRequest): Promise<{ status: number; body: string }> {
    const { url, address } = target;
    const pinned: LookupFunction = (_hostname, options, callback) => {
      if (options.all) callback(null, [address]);
      else callback(null, address.address, address.family);
    };
    const transport = url.protocol === 'https:' ? https : http;
    return new Promise((resolve, reject) => {
      const req = transport.request(
        {
          protocol: url.protocol,
          hostname: bareHost(url.hostname),
          port: url.port || undefined,
          path: `${url.pathname}${url.search}`,
          method: request.method,
          headers: request.body === undefined ? request.headers : withLength(request.headers, request.body),
          lookup: pinned,
          // A fresh socket per call: a pooled one may have been opened for another checked address.
          agent: false,
        },
        (res) => {
          const chunks: Buffer[] = [];
          const answerBytes = request.answerBytes ?? this.answerBytes;
          let kept = 0;
          const finish = () => {
            clearTimeout(deadline);
            resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') });
          };
          res.on('data', (chunk: Buffer) => {
            if (kept >= answerBytes) return;
            const part = chunk.subarray(0, answerBytes - kept);
            chunks.push(part);
            kept += part.length;
            if (kept >= answerBytes) {
              // The rest of the answer is not wanted: stop reading it.
              res.destroy();
              finish();
            }
          });
          res.on('end', finish);
          res.on('error', (err) => (kept >= answerBytes ? finish() : reject(err)));
        },
      );
      const deadline = setTimeout(() => req.destroy(new Error('timeout')), this.timeoutMs);
      req.on('error', (err) => {
        clearTimeout(deadline);
        reject(err);
      });
      req.end(request.body);
    });
  }
}

const refusal = (reason: string): Refusal => ({ refused: true, reason });

/** A URL's hostname without the brackets of an IPv6 literal. */
const bareHost = (hostname: string) =>
  hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;

const withLength = (headers: Record<string, string>, body: string) => ({
  ...headers,
  'content-length': String(Buffer.byteLength(body)),
});

/** A failure as a short phrase for the delivery row: never the URL, which may carry a token in its path. */
function failureReason(err: unknown): string {
  const { message, code } = err as { message?: string; code?: string };
  if (message === 'timeout') return 'no answer within the time limit';
  if (code === 'ECONNREFUSED') return 'connection refused';
  if (code === 'ECONNRESET') return 'connection reset';
  if (typeof code === 'string' && (code.startsWith('ERR_TLS') || code.includes('CERT')))
    return 'TLS certificate refused';
  return typeof code === 'string' ? `connection failed (${code})` : 'connection failed';
}
