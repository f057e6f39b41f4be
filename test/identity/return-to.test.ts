import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { safeReturnTo } from '../../src/identity/return-to.js';

/** `safeReturnTo` is the rule of the server's `/auth/{id}/start` and of the web app's sign-in page alike. */

const ORIGIN = 'https://h.example';

/** The spellings an attacker mixes: separators, dot segments, encodings once and twice, controls, cases. */
const PIECES = [
  '/',
  '//',
  '\\',
  '.',
  '..',
  '%2e',
  '%2E',
  '%2e%2e',
  '%2E%2e',
  '.%2e',
  '%252e',
  '%252E%252E',
  '%2f',
  '%2F',
  '%252f',
  '%252F',
  '%5c',
  '%5C',
  '%255c',
  '\t',
  '\n',
  '\r',
  '%09',
  '%0a',
  '%0D',
  '%00',
  '\u0000',
  '\u2028',
  ' ',
  '%',
  '%%',
  '?',
  '#',
  ':',
  '@',
  'https:',
  'HTTPS:',
  'javascript:',
  'JavaScript:',
  'evil.example',
  'EVIL.example',
  'a',
  'o',
  'teams',
];

const spelling = fc.oneof(
  fc.array(fc.constantFrom(...PIECES), { maxLength: 12 }).map((parts) => parts.join('')),
  fc.array(fc.constantFrom(...PIECES), { maxLength: 12 }).map((parts) => `/${parts.join('')}`),
  fc.string({ unit: 'binary', maxLength: 40 }),
);

/** Whether a browser at ORIGIN, sent to `answer`, stays on ORIGIN, also after reading it decoded once. */
function staysOnOrigin(answer: string): boolean {
  if (answer === '/') return true;
  if (!answer.startsWith('/') || answer.startsWith('//') || answer.startsWith('/\\')) return false;
  if (new URL(answer, ORIGIN).origin !== ORIGIN) return false;
  const decoded = decodeURIComponent(answer);
  return !decoded.startsWith('//') && !decoded.startsWith('/\\') && new URL(decoded, ORIGIN).origin === ORIGIN;
}

describe('safeReturnTo', () => {
  it('answers a same-origin path or / for every generated spelling, and the same answer when asked again', () => {
    fc.assert(
      fc.property(spelling, (raw) => {
        const answer = safeReturnTo(raw);
        expect(staysOnOrigin(answer), `${JSON.stringify(raw)} → ${JSON.stringify(answer)}`).toBe(true);
        // A browser that follows the answer reads it as the same path: no dot segment or `//` left to resolve.
        expect(new URL(answer, ORIGIN).pathname).toBe(answer.split(/[?#]/, 1)[0]);
        expect(safeReturnTo(answer)).toBe(answer);
      }),
      { numRuns: 5000 },
    );
  });

  it.each([
    '/.//evil.example',
    '/a/..//evil.example',
    '/%2e//evil.example',
    '/..//evil.example',
    '/%2E%2E//evil.example',
    '/%2e%2E/%2F/evil.example',
    '/.%2e//evil.example',
    '/./%5Cevil.example',
    '/a/%252e%252e//evil.example',
    '//evil.example/x',
    '/\\evil.example',
    '/\t/evil.example',
    '/%09/evil.example',
    '/\n/evil.example',
    'https://evil.example/',
    'javascript:alert(1)',
    'evil.example',
    '/%E0%A4%A',
  ])('refuses %j', (raw) => {
    expect(safeReturnTo(raw)).toBe('/');
  });

  it.each([
    ['/o/acme/teams?tab=2', '/o/acme/teams?tab=2'],
    ['/invite/tok', '/invite/tok'],
    ['/o/acme/usage/', '/o/acme/usage/'],
    ['/o/acme/usage#top', '/o/acme/usage#top'],
    ['/o/acme/projects?next=//x', '/o/acme/projects?next=//x'],
    ['/o/ünï', '/o/%C3%BCn%C3%AF'],
    ['/', '/'],
  ])('keeps the path of this origin %j as %j', (raw, answer) => {
    expect(safeReturnTo(raw)).toBe(answer);
  });

  it('answers / for nothing at all and for a value too long to be a path of this app', () => {
    expect(safeReturnTo(undefined)).toBe('/');
    expect(safeReturnTo(null)).toBe('/');
    expect(safeReturnTo(`/${'a'.repeat(4096)}`)).toBe('/');
  });
});
