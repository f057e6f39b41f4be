/**
 * Reads RFC 4180 CSV strictly: every record ends with CRLF, a quoted field doubles its quotes, and
 * anything else (a bare LF, a stray quote, a missing final CRLF) throws. Fields come back as text,
 * with whether each was quoted, so a test can tell `""` from an empty field.
 */
export interface CsvField {
  text: string;
  quoted: boolean;
}

export function parseCsv(body: string): CsvField[][] {
  const records: CsvField[][] = [];
  let record: CsvField[] = [];
  let i = 0;
  while (i < body.length) {
    let field: CsvField;
    if (body[i] === '"') {
      let text = '';
      i += 1;
      for (;;) {
        const quote = body.indexOf('"', i);
        if (quote < 0) throw new Error('unterminated quoted field');
        text += body.slice(i, quote);
        if (body[quote + 1] === '"') {
          text += '"';
          i = quote + 2;
        } else {
          i = quote + 1;
          break;
        }
      }
      field = { text, quoted: true };
    } else {
      const end = body.slice(i).search(/[,\r\n"]/);
      const stop = end < 0 ? body.length : i + end;
      field = { text: body.slice(i, stop), quoted: false };
      i = stop;
    }
    record.push(field);
    if (body[i] === ',') {
      i += 1;
    } else if (body.startsWith('\r\n', i)) {
      records.push(record);
      record = [];
      i += 2;
    } else {
      throw new Error(`unexpected ${JSON.stringify(body.slice(i, i + 10))} at ${i}`);
    }
  }
  if (record.length > 0) throw new Error('the last record has no CRLF');
  return records;
}

/** The records as objects keyed by the header row's names, each field's text. */
export function csvObjects(body: string): Array<Record<string, string>> {
  const [header, ...rows] = parseCsv(body);
  if (!header) throw new Error('no header row');
  return rows.map((row) => Object.fromEntries(header.map((name, k) => [name.text, row[k]?.text ?? ''])));
}
