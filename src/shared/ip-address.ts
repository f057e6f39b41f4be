import { isIPv4, isIPv6 } from 'node:net';

/** The four bytes of a dotted-quad IPv4 address, as Node's URL parser and resolver write them. */
export function ipv4Bytes(text: string): number[] | undefined {
  if (!isIPv4(text)) return undefined;
  return text.split('.').map(Number);
}

/** The sixteen bytes of an IPv6 address in any spelling Node accepts (zone index ignored). */
export function ipv6Bytes(text: string): number[] | undefined {
  const address = text.split('%')[0]!;
  if (!isIPv6(address)) return undefined;
  let groups: number[] = [];
  const [head, tail] = address.includes('::') ? address.split('::') : [address, undefined];
  const parse = (part: string | undefined): number[] => {
    if (!part) return [];
    return part.split(':').flatMap((group) => {
      const quad = ipv4Bytes(group);
      if (quad) return [(quad[0]! << 8) | quad[1]!, (quad[2]! << 8) | quad[3]!];
      return [Number.parseInt(group, 16)];
    });
  };
  const front = parse(head);
  if (tail === undefined) groups = front;
  else {
    const back = parse(tail);
    groups = [...front, ...new Array<number>(8 - front.length - back.length).fill(0), ...back];
  }
  if (groups.length !== 8) return undefined;
  return groups.flatMap((group) => [group >> 8, group & 0xff]);
}

/**
 * The part of a client address that one host controls, as the key of a per-address limit: an
 * IPv4 address itself (an IPv4-mapped IPv6 address, as a dual-stack socket reports an IPv4
 * client, counts as that IPv4 address); for IPv6 its /64, since a single host is routinely given
 * a whole /64 and could otherwise pick a fresh address, and a fresh budget, for every request.
 * Anything else is kept as it is.
 */
export function clientAddressKey(address: string): string {
  if (ipv4Bytes(address)) return address;
  const bytes = ipv6Bytes(address);
  if (!bytes) return address;
  if (bytes.slice(0, 10).every((byte) => byte === 0) && bytes[10] === 0xff && bytes[11] === 0xff) {
    return bytes.slice(12).join('.');
  }
  const groups = [0, 2, 4, 6].map((i) => ((bytes[i]! << 8) | bytes[i + 1]!).toString(16));
  return `${groups.join(':')}::/64`;
}
