import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const CPH_BIN = fileURLToPath(new URL('../../authoring/bin/cph.js', import.meta.url));
export const FIXTURES = fileURLToPath(new URL('./fixtures/', import.meta.url));

/** A fixture's course directory. */
export const fixtureCourse = (name: string): string => path.join(FIXTURES, name, 'course');

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the real `cph` as a subprocess. */
export function runCph(args: readonly string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const env = { PATH: process.env.PATH, HOME: process.env.HOME, ...options.env };
    const child = spawn(process.execPath, [CPH_BIN, ...args], { cwd: options.cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
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
