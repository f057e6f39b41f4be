/**
 * A reader for the YAML a course.yaml is usually made of: block mappings and sequences, one-line
 * flow mappings (`- {id: intro, kind: lesson, format: markdown}`), plain scalars that can only be
 * strings, simple quoted strings, full-line comments. It returns exactly what the `yaml` package's
 * `parseDocument(text).toJS()` returns for such a text, and undefined at the first line it does
 * not know (or any form it does not handle), leaving the text to `yaml`.
 *
 * Why: `yaml` spends ~50-70 ms on a 500-part course.yaml in a fresh process, a quarter of a
 * build; this reads it in about a millisecond. Positions are only needed for diagnostics, and
 * then the caller parses with `yaml` after all. The property test in
 * test/authoring/simple-yaml.test.ts holds the two to the same data.
 */

interface Line {
  indent: number;
  text: string;
}

type Value = string | Value[] | { [key: string]: Value };

/** A key, or a plain scalar in a flow mapping: one word, never a number, boolean or null in YAML 1.2. */
const WORD = /^[A-Za-z][A-Za-z0-9._-]*$/;
/** A plain scalar in block context: words and a few punctuation marks, none that YAML gives a meaning. */
const PLAIN = /^[A-Za-z\u00a1-\u2027\u202a-\ufefe][A-Za-z0-9 .,/()!?'\u00a1-\u2027\u202a-\ufefe-]*$/;
const SPECIAL = /^(?:true|True|TRUE|false|False|FALSE|null|Null|NULL)$/;
const FLOW_MAPPING = /^\{.*\}$/;

/** The data of `text`, or undefined when it holds anything this reader does not know. */
export function parseSimpleYaml(text: string): Value | undefined {
  if (/[\t\r]/.test(text)) return undefined;
  const lines: Line[] = [];
  for (const raw of text.split('\n')) {
    const trimmed = raw.trimStart();
    if (trimmed === '' || trimmed.startsWith('#')) continue;
    // Trailing spaces, inline comments and document markers are left to `yaml`.
    if (raw.endsWith(' ') || raw.includes(' #') || raw.startsWith('---') || raw.startsWith('...')) return undefined;
    lines.push({ indent: raw.length - trimmed.length, text: trimmed });
  }
  if (lines.length === 0 || lines[0]!.indent !== 0) return undefined;
  const reader = { lines, next: 0 };
  const value = block(reader, 0);
  return reader.next === lines.length ? value : undefined;
}

interface Reader {
  lines: Line[];
  next: number;
}

/** The block node whose lines start at the reader, all at `indent`. */
function block(reader: Reader, indent: number): Value | undefined {
  const first = reader.lines[reader.next];
  if (!first || first.indent !== indent) return undefined;
  return first.text.startsWith('- ') ? sequence(reader, indent) : mapping(reader, indent);
}

function sequence(reader: Reader, indent: number): Value[] | undefined {
  const items: Value[] = [];
  for (let line = reader.lines[reader.next]; line?.indent === indent; line = reader.lines[reader.next]) {
    if (!line.text.startsWith('- ')) return undefined;
    const rest = line.text.slice(2);
    if (rest.startsWith(' ')) return undefined;
    if (/^[A-Za-z][A-Za-z0-9._-]*:(?: |$)/.test(rest)) {
      // `- key: value` starts a mapping whose keys line up with `key`.
      reader.lines[reader.next] = { indent: indent + 2, text: rest };
      const item = mapping(reader, indent + 2);
      if (item === undefined) return undefined;
      items.push(item);
      continue;
    }
    const item = scalarOrFlow(rest);
    if (item === undefined) return undefined;
    items.push(item);
    reader.next++;
  }
  return items;
}

function mapping(reader: Reader, indent: number): { [key: string]: Value } | undefined {
  const map: { [key: string]: Value } = {};
  for (let line = reader.lines[reader.next]; line?.indent === indent; line = reader.lines[reader.next]) {
    const colon = line.text.indexOf(':');
    const key = line.text.slice(0, colon);
    if (colon === -1 || !WORD.test(key) || SPECIAL.test(key) || Object.hasOwn(map, key)) return undefined;
    const rest = line.text.slice(colon + 1);
    reader.next++;
    let value: Value | undefined;
    if (rest === '') {
      const nested = reader.lines[reader.next];
      value = nested && nested.indent > indent ? block(reader, nested.indent) : undefined;
    } else if (rest.startsWith(' ') && !rest.startsWith('  ')) {
      value = scalarOrFlow(rest.slice(1));
    }
    if (value === undefined) return undefined;
    map[key] = value;
  }
  return map;
}

/** A scalar or a one-line flow mapping, written after `key: ` or `- `. */
function scalarOrFlow(text: string): Value | undefined {
  if (FLOW_MAPPING.test(text)) {
    const flow = { text, at: 0 };
    const value = flowMapping(flow);
    return flow.at === text.length ? value : undefined;
  }
  const quote = text[0];
  if (quote === '"' || quote === "'") {
    const inner = text.slice(1, -1);
    const closed = text.length >= 2 && text.endsWith(quote);
    const escapeFree = quote === '"' ? !/["\\]/.test(inner) : !inner.includes("'");
    return closed && escapeFree && !/[^\x20-\x7e\u00a1-\u2027\u202a-\ufefe]/.test(inner) ? inner : undefined;
  }
  if (!PLAIN.test(text) || SPECIAL.test(text) || text.includes(': ') || text.endsWith(':')) return undefined;
  return text;
}

/** `{key: value, key: {key: value}}`, exactly so spaced, from `at`. */
function flowMapping(flow: { text: string; at: number }): { [key: string]: Value } | undefined {
  const { text } = flow;
  if (text[flow.at] !== '{') return undefined;
  flow.at++;
  const map: { [key: string]: Value } = {};
  for (;;) {
    const key = /^[A-Za-z][A-Za-z0-9._-]*/.exec(text.slice(flow.at))?.[0];
    if (key === undefined || SPECIAL.test(key) || Object.hasOwn(map, key)) return undefined;
    flow.at += key.length;
    if (!text.startsWith(': ', flow.at)) return undefined;
    flow.at += 2;
    let value: Value | undefined;
    if (text[flow.at] === '{') value = flowMapping(flow);
    else {
      const word = /^[A-Za-z][A-Za-z0-9._-]*/.exec(text.slice(flow.at))?.[0];
      if (word !== undefined && !SPECIAL.test(word)) {
        value = word;
        flow.at += word.length;
      }
    }
    if (value === undefined) return undefined;
    map[key] = value;
    if (text[flow.at] === '}') {
      flow.at++;
      return map;
    }
    if (!text.startsWith(', ', flow.at)) return undefined;
    flow.at += 2;
  }
}
