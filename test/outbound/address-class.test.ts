import { describe, expect, it } from 'vitest';
import { type AddressClass, classifyAddress } from '../../src/outbound/address-class.js';

/** The host part of a URL as Node's URL parser normalizes it, which is what the client classifies. */
const hostOf = (host: string) => new URL(`https://${host}/`).hostname;

describe('classifyAddress', () => {
  const cases: [string, AddressClass | undefined][] = [
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['::1', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'link-local'],
    ['fe80::1', 'link-local'],
    ['febf::1', 'link-local'],
    ['100.64.0.1', 'cgnat'],
    ['100.127.255.255', 'cgnat'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['ff02::1', 'multicast'],
    ['0.0.0.0', 'unspecified'],
    ['::', 'unspecified'],
    ['fc00::1', 'unique-local'],
    ['fd12:3456::1', 'unique-local'],
    ['255.255.255.255', 'reserved'],
    ['not-an-address', 'reserved'],
    // Tunnels that forward to an address inside the packet, benchmarking and ORCHIDv2.
    ['2001::1', 'reserved'],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'reserved'],
    ['2001:0:ffff:ffff:ffff:ffff:ffff:ffff', 'reserved'],
    ['192.88.99.1', 'reserved'],
    ['192.88.99.255', 'reserved'],
    ['2001:20::1', 'reserved'],
    ['2001:2f:ffff::1', 'reserved'],
    ['2001:2::1', 'reserved'],
    ['2001:2:0:ffff::1', 'reserved'],
    // Just outside the ranges: public.
    ['8.8.8.8', undefined],
    ['172.32.0.1', undefined],
    ['100.128.0.1', undefined],
    ['169.253.255.255', undefined],
    ['2606:4700::1111', undefined],
    ['2001:1::1', undefined],
    ['2001:2:1::1', undefined],
    ['2001:1f:ffff::1', undefined],
    ['2001:30::1', undefined],
    ['2001:4860:4860::8888', undefined],
    ['192.88.98.255', undefined],
    ['192.88.100.0', undefined],
  ];
  it.each(cases)('%s is %s', (address, expected) => {
    expect(classifyAddress(address)).toBe(expected);
  });

  it('judges every IPv6 form that carries an IPv4 address by that address', () => {
    for (const form of [
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '0:0:0:0:0:ffff:127.0.0.1',
      '0000:0000:0000:0000:0000:FFFF:7F00:0001',
      '::ffff:0:127.0.0.1',
      '::127.0.0.1',
      '64:ff9b::127.0.0.1',
      '2002:7f00:1::',
      '[::ffff:127.0.0.1]',
    ]) {
      expect(classifyAddress(form), form).toBe('loopback');
    }
    expect(classifyAddress('::ffff:10.0.0.1')).toBe('private');
    expect(classifyAddress('::ffff:169.254.169.254')).toBe('link-local');
    expect(classifyAddress('::ffff:8.8.8.8')).toBeUndefined();
  });

  it('classifies decimal, octal and hex IPv4 spellings as the URL parser normalizes them', () => {
    for (const host of ['2130706433', '017700000001', '0x7f000001', '0x7f.1', '127.1', '0177.0.0.1']) {
      expect(classifyAddress(hostOf(host)), host).toBe('loopback');
    }
    expect(classifyAddress(hostOf('0xa000001'))).toBe('private');
    expect(classifyAddress(hostOf('3232235777'))).toBe('private');
    expect(classifyAddress(hostOf('[::ffff:127.0.0.1]'))).toBe('loopback');
  });
});
