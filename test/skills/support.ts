import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

export interface TextFile {
  path: string;
  content: string;
}

/** A `SKILL.md` with front matter naming the skill (and a description when given). */
export function skillMd(name: string, description?: string, body = 'Use this skill when asked to.\n'): TextFile {
  const front = [
    `name: ${name}`,
    ...(description === undefined ? [] : [`description: ${JSON.stringify(description)}`]),
  ];
  return { path: 'SKILL.md', content: `---\n${front.join('\n')}\n---\n\n# ${name}\n\n${body}` };
}

const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');

/**
 * The content address computed here, independently of src/skills: sha256 of
 * "<sha256>  <path>\n" lines sorted by the UTF-8 bytes of the path.
 */
export function expectedDigest(files: ReadonlyArray<{ path: string; content: string | Buffer }>): string {
  const lines = files
    .map((f) => ({
      key: Buffer.from(f.path, 'utf8'),
      line: `${sha256(typeof f.content === 'string' ? Buffer.from(f.content, 'utf8') : f.content)}  ${f.path}\n`,
    }))
    .sort((a, b) => Buffer.compare(a.key, b.key))
    .map((l) => l.line);
  return sha256(lines.join(''));
}

/** Every file under `dir` with its bytes, relative POSIX paths. */
export function readTree(dir: string): Array<{ path: string; content: Buffer }> {
  const out: Array<{ path: string; content: Buffer }> = [];
  const walk = (current: string, prefix: string) => {
    for (const entry of fs.readdirSync(current, { withFileTypes: true })) {
      const full = path.join(current, entry.name);
      if (entry.isDirectory()) walk(full, `${prefix}${entry.name}/`);
      else out.push({ path: `${prefix}${entry.name}`, content: fs.readFileSync(full) });
    }
  };
  walk(dir, '');
  return out;
}

/** Every path under `dir` (directories with a trailing `/`), with its mode and size: a snapshot to compare. */
export function treeSnapshot(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  const out: string[] = [];
  const walk = (current: string, prefix: string) => {
    for (const entry of fs.readdirSync(current, { withFileTypes: true })) {
      const full = path.join(current, entry.name);
      const stat = fs.lstatSync(full);
      if (entry.isDirectory()) {
        out.push(`${prefix}${entry.name}/ ${(stat.mode & 0o777).toString(8)}`);
        walk(full, `${prefix}${entry.name}/`);
      } else out.push(`${prefix}${entry.name} ${(stat.mode & 0o777).toString(8)} ${stat.size}`);
    }
  };
  walk(dir, '');
  return out.sort();
}

/** Problems with a store: entries whose recomputed digest is not their name, writable modes, staging left over. */
export function storeProblems(root: string): string[] {
  const problems: string[] = [];
  if (!fs.existsSync(root)) return problems;
  for (const name of fs.readdirSync(root)) {
    const entry = path.join(root, name);
    if (!/^[0-9a-f]{64}$/.test(name)) {
      problems.push(`unexpected ${name}`);
      continue;
    }
    const files = readTree(entry);
    if (files.length === 0) problems.push(`${name} is empty`);
    if (expectedDigest(files) !== name) problems.push(`${name} holds content of another digest`);
    for (const line of treeSnapshot(entry)) {
      const [p, mode] = line.split(' ');
      const want = p!.endsWith('/') ? '555' : '444';
      if (mode !== want) problems.push(`${name}/${p} has mode ${mode}, not ${want}`);
    }
    if ((fs.statSync(entry).mode & 0o777) !== 0o555) problems.push(`${name} itself is not 555`);
  }
  return problems;
}
