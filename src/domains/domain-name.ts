import { domainToASCII } from 'node:url';

/** The longest domain name DNS carries, in its ASCII form. */
const MAX_DOMAIN_LENGTH = 253;
/** A label: letters, digits and inner hyphens, 1 to 63 characters. */
const LABEL = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/;
/** A top-level label is letters, or an internationalized one in its ASCII form (`xn--…`). */
const TOP_LABEL = /^([a-z]{2,63}|xn--[a-z0-9-]{1,59})$/;

/**
 * A domain name as the hub keeps it: lower case, internationalized names in their ASCII form
 * (`bücher.example` → `xn--bcher-kva.example`), no trailing dot. The one spelling every check
 * compares, so `Example.COM.` and `example.com` are the same domain everywhere.
 */
export type DomainName = string & { readonly domainName: unique symbol };

/**
 * The domain in its kept spelling, or why it is no domain a company can own: an address, a
 * wildcard, a single label (`localhost`), an `@`, an underscore or a malformed label.
 */
export function normalizeDomain(raw: string): { domain: DomainName } | { problem: string } {
  const trimmed = raw.trim().replace(/\.$/, '');
  if (trimmed.includes('@')) return { problem: 'is an email address; give only the part after the "@"' };
  if (trimmed.includes('*')) return { problem: 'is a wildcard; give the domain itself (example.com)' };
  const ascii = trimmed === '' ? '' : domainToASCII(trimmed);
  if (ascii === '') return { problem: 'is not a domain name' };
  if (ascii.length > MAX_DOMAIN_LENGTH) return { problem: `is longer than ${MAX_DOMAIN_LENGTH} characters` };
  const labels = ascii.split('.');
  if (labels.length < 2) return { problem: 'has a single label; give a domain such as example.com' };
  if (!labels.every((label) => LABEL.test(label)) || !TOP_LABEL.test(labels[labels.length - 1]!)) {
    return { problem: 'is not a domain name such as example.com (letters, digits and hyphens between dots)' };
  }
  return { domain: ascii as DomainName };
}

/** The kept spelling of an email address's domain, or undefined when it has none that is valid. */
export function emailDomainOf(email: string): DomainName | undefined {
  const at = email.lastIndexOf('@');
  if (at < 1) return undefined;
  const result = normalizeDomain(email.slice(at + 1));
  return 'domain' in result ? result.domain : undefined;
}
