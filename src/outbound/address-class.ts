import { ipv4Bytes, ipv6Bytes } from '../shared/ip-address.js';

/**
 * Why an address is no place for the server to send a request an outsider chose (the URL of a
 * webhook): each class names a range that reaches the service's own host or network rather than
 * the public internet.
 */
export type AddressClass =
  | 'loopback'
  | 'private'
  | 'link-local'
  | 'cgnat'
  | 'multicast'
  | 'unspecified'
  | 'unique-local'
  | 'reserved';

interface Range {
  bits: number[];
  prefix: number;
  class: AddressClass;
}

const v4 = (cidr: string, addressClass: AddressClass): Range => {
  const [address, prefix] = cidr.split('/');
  return { bits: ipv4Bytes(address!)!, prefix: Number(prefix), class: addressClass };
};

const IPV4_RANGES: Range[] = [
  v4('0.0.0.0/8', 'unspecified'),
  v4('10.0.0.0/8', 'private'),
  v4('100.64.0.0/10', 'cgnat'),
  v4('127.0.0.0/8', 'loopback'),
  v4('169.254.0.0/16', 'link-local'),
  v4('172.16.0.0/12', 'private'),
  v4('192.0.0.0/24', 'reserved'),
  v4('192.0.2.0/24', 'reserved'),
  // The 6to4 relay anycast prefix: a tunnel endpoint that forwards to an address inside the packet.
  v4('192.88.99.0/24', 'reserved'),
  v4('192.168.0.0/16', 'private'),
  v4('198.18.0.0/15', 'reserved'),
  v4('198.51.100.0/24', 'reserved'),
  v4('203.0.113.0/24', 'reserved'),
  v4('224.0.0.0/4', 'multicast'),
  v4('240.0.0.0/4', 'reserved'),
];

/** IPv6 ranges by their leading bytes; the forms that carry an IPv4 address are handled before these. */
const IPV6_RANGES: Range[] = [
  { bits: [0xfe, 0x80], prefix: 10, class: 'link-local' },
  // Site-local (deprecated, yet still routed inside some networks).
  { bits: [0xfe, 0xc0], prefix: 10, class: 'private' },
  { bits: [0xfc], prefix: 7, class: 'unique-local' },
  { bits: [0xff], prefix: 8, class: 'multicast' },
  // Discard-only and documentation prefixes.
  { bits: [0x01, 0x00, 0, 0, 0, 0, 0, 0], prefix: 64, class: 'reserved' },
  { bits: [0x20, 0x01, 0x0d, 0xb8], prefix: 32, class: 'reserved' },
  // Teredo: a tunnel whose relay forwards to the IPv4 address the rest of the address encodes.
  { bits: [0x20, 0x01, 0x00, 0x00], prefix: 32, class: 'reserved' },
  // Benchmarking and ORCHIDv2 (hashed identifiers, never a routable host).
  { bits: [0x20, 0x01, 0x00, 0x02, 0x00, 0x00], prefix: 48, class: 'reserved' },
  { bits: [0x20, 0x01, 0x00, 0x20], prefix: 28, class: 'reserved' },
];

/**
 * The class of an IP address the server must not reach, or undefined for a public address.
 * Anything that is not an address at all is `reserved`, so a caller that forgot to resolve a
 * name is refused rather than let through. IPv6 forms that carry an IPv4 address (mapped
 * `::ffff:a.b.c.d` however it is spelled, compatible `::a.b.c.d`, translated, NAT64 and 6to4)
 * are judged by the IPv4 address they reach.
 */
export function classifyAddress(address: string): AddressClass | undefined {
  const bare = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address;
  const ipv4 = ipv4Bytes(bare);
  if (ipv4) return classOf(ipv4, IPV4_RANGES);
  const ipv6 = ipv6Bytes(bare);
  if (!ipv6) return 'reserved';
  const embedded = embeddedIpv4(ipv6);
  if (embedded) return classOf(embedded, IPV4_RANGES);
  if (isZero(ipv6, 0, 15)) return ipv6[15] === 1 ? 'loopback' : ipv6[15] === 0 ? 'unspecified' : 'reserved';
  return classOf(ipv6, IPV6_RANGES);
}

function classOf(bytes: number[], ranges: Range[]): AddressClass | undefined {
  return ranges.find((range) => inRange(bytes, range))?.class;
}

function inRange(bytes: number[], { bits, prefix }: Range): boolean {
  for (let i = 0; i * 8 < prefix; i++) {
    const width = Math.min(8, prefix - i * 8);
    const mask = (0xff << (8 - width)) & 0xff;
    if (((bytes[i] ?? 0) & mask) !== ((bits[i] ?? 0) & mask)) return false;
  }
  return true;
}

const isZero = (bytes: number[], from: number, to: number) => bytes.slice(from, to).every((byte) => byte === 0);

/** The IPv4 address an IPv6 address stands for, when it is one of the forms that carry one. */
function embeddedIpv4(bytes: number[]): number[] | undefined {
  const last4 = bytes.slice(12, 16);
  // ::ffff:a.b.c.d (mapped) and ::ffff:0:a.b.c.d (translated).
  if (isZero(bytes, 0, 10) && bytes[10] === 0xff && bytes[11] === 0xff) return last4;
  if (isZero(bytes, 0, 8) && bytes[8] === 0xff && bytes[9] === 0xff && isZero(bytes, 10, 12)) return last4;
  // ::a.b.c.d (compatible, deprecated); :: and ::1 are themselves.
  if (isZero(bytes, 0, 12) && !isZero(bytes, 12, 15)) return last4;
  // 64:ff9b::a.b.c.d and 64:ff9b:1::/48 (NAT64): the gateway reaches the IPv4 address.
  if (bytes[0] === 0 && bytes[1] === 0x64 && bytes[2] === 0xff && bytes[3] === 0x9b) return last4;
  // 2002:a.b.c.d::/48 (6to4).
  if (bytes[0] === 0x20 && bytes[1] === 0x02) return bytes.slice(2, 6);
  return undefined;
}
