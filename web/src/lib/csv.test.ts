import { describe, expect, it } from 'vitest';
import { csvField, toCsv } from './csv';

describe('csvField', () => {
  it('writes plain text and numbers as they are, null and undefined as empty', () => {
    expect(csvField('Billing')).toBe('Billing');
    expect(csvField(42)).toBe('42');
    expect(csvField(-3.5)).toBe('-3.5');
    expect(csvField(0)).toBe('0');
    expect(csvField(null)).toBe('');
    expect(csvField(undefined)).toBe('');
    expect(csvField(Number.NaN)).toBe('');
    expect(csvField('')).toBe('');
  });

  it('quotes a field holding a comma, a double quote, CR or LF, doubling the quotes (RFC 4180)', () => {
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    expect(csvField('cr\rhere')).toBe('"cr\rhere"');
    expect(csvField('"')).toBe('""""');
  });

  it('prefixes text that a spreadsheet would run as a formula with a single quote', () => {
    expect(csvField('=1+2')).toBe("'=1+2");
    expect(csvField('+1')).toBe("'+1");
    expect(csvField('-1')).toBe("'-1");
    expect(csvField('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvField('\tx')).toBe("'\tx");
    expect(csvField('\rx')).toBe('"\'\rx"');
    expect(csvField('=HYPERLINK("http://x","y")')).toBe('"\'=HYPERLINK(""http://x"",""y"")"');
    expect(csvField('=a,b')).toBe('"\'=a,b"');
  });

  it('leaves the characters alone anywhere but at the start', () => {
    expect(csvField('a=b')).toBe('a=b');
    expect(csvField(' =x')).toBe(' =x');
    expect(csvField("'quoted")).toBe("'quoted");
  });
});

describe('toCsv', () => {
  it('joins fields with commas and records with CRLF, ending with CRLF', () => {
    expect(
      toCsv([
        ['Project', 'Cost'],
        ['Billing', 1.5],
        ['-Misc', null],
      ]),
    ).toBe("Project,Cost\r\nBilling,1.5\r\n'-Misc,\r\n");
  });

  it('is empty for no records', () => {
    expect(toCsv([])).toBe('');
  });
});
