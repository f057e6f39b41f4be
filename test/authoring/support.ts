import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runNode, type CliResult } from '../support/subprocess.js';

export type { CliResult };

export const CPH_BIN = fileURLToPath(new URL('../../authoring/bin/cph.js', import.meta.url));
export const FIXTURES = fileURLToPath(new URL('./fixtures/', import.meta.url));

/** A fixture's course directory. */
export const fixtureCourse = (name: string): string => path.join(FIXTURES, name, 'course');

/** Runs the real `cph` as a subprocess. */
export function runCph(
  args: readonly string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<CliResult> {
  return runNode(CPH_BIN, args, {
    cwd: options.cwd,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...options.env },
  });
}

const made: string[] = [];

/** A fresh temp directory, removed by `removeTempDirs`. */
export function tempDir(prefix = 'cph-test-'): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  made.push(dir);
  return dir;
}

export function removeTempDirs(): void {
  for (const dir of made.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
}

/** A copy of a fixture course in a temp directory, for tests that write into the course. */
export function copyFixture(name: string): string {
  const dir = path.join(tempDir(), 'course');
  fs.cpSync(fixtureCourse(name), dir, { recursive: true });
  return dir;
}

/** Every file under `dir`, as POSIX relative path → bytes. */
export function readTree(dir: string): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  const walk = (sub: string) => {
    for (const entry of fs.readdirSync(path.join(dir, sub), { withFileTypes: true })) {
      const rel = sub ? `${sub}/${entry.name}` : entry.name;
      if (entry.isDirectory()) walk(rel);
      else out.set(rel, fs.readFileSync(path.join(dir, rel)));
    }
  };
  walk('');
  return new Map([...out].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** Writes a course from a map of relative path → text. */
export function writeCourse(files: Record<string, string>): string {
  const dir = path.join(tempDir(), 'course');
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), text);
  }
  return dir;
}
