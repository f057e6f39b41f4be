import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../config/config.js';
import { StartupError } from './startup-error.js';

/**
 * `<data>/server.json`: the `hub serve` running on a data directory, for the host console (the
 * base URL its login links use) and for the next `hub serve` (which refuses a SQLite data
 * directory a live server holds). Each process removes only the record it wrote.
 */
const SERVER_FILE = 'server.json';

interface ServerRecord {
  baseUrl?: unknown;
  /** The port it listens on (older records have none: then the base URL's). */
  port?: unknown;
  pid: number;
}

/**
 * Written by `hub serve` once it listens. On SQLite the record is also the claim of the data
 * directory: it is created only when no live process holds one (an atomic link), so of two
 * servers starting together one refuses; on PostgreSQL, where instances may share a data
 * directory, the newest record stands.
 */
export function recordServer(dataDir: string, server: { baseUrl: string; port: number; exclusive: boolean }): void {
  fs.mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, SERVER_FILE);
  const temporary = `${file}.${process.pid}.tmp`;
  const record = { baseUrl: server.baseUrl, port: server.port, pid: process.pid, startedAt: new Date().toISOString() };
  fs.writeFileSync(temporary, `${JSON.stringify(record)}\n`);
  try {
    if (!server.exclusive) {
      fs.renameSync(temporary, file);
      return;
    }
    for (;;) {
      try {
        fs.linkSync(temporary, file);
        return;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      }
      refuseWhenInUse(dataDir);
      setAsideStale(file);
    }
  } finally {
    fs.rmSync(temporary, { force: true });
  }
}

/**
 * Moves a record whose process no longer runs out of the way. Should another server have claimed
 * the directory in between, its record is put back and this start refused.
 */
function setAsideStale(file: string): void {
  const aside = `${file}.${process.pid}.stale`;
  try {
    fs.renameSync(file, aside);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return; // Another start set it aside first.
    throw err;
  }
  const moved = readRecord(aside);
  if (moved && processAlive(moved.pid)) {
    fs.renameSync(aside, file);
    throw inUse(path.dirname(file), moved);
  }
  fs.rmSync(aside, { force: true });
}

/** Stops a start on SQLite when a live `hub serve` other than this process holds the data directory. */
export function refuseWhenInUse(dataDir: string): void {
  const running = runningServer(dataDir);
  if (running && running.pid !== process.pid) throw inUse(dataDir, running);
}

function inUse(dataDir: string, running: ServerRecord): StartupError {
  const baseUrl = typeof running.baseUrl === 'string' ? running.baseUrl : undefined;
  const port = typeof running.port === 'number' ? running.port : portOf(baseUrl);
  return new StartupError(
    `the SQLite data directory ${dataDir} is in use by hub serve (pid ${running.pid}` +
      `${port === undefined ? '' : `, port ${port}`}${baseUrl ? `, ${baseUrl}` : ''}); stop it first, or run ` +
      'several instances on PostgreSQL (DATABASE_URL; docs/operating.md, "Running several instances")',
  );
}

function portOf(baseUrl: string | undefined): number | undefined {
  if (baseUrl === undefined) return undefined;
  const url = new URL(baseUrl);
  return Number(url.port || (url.protocol === 'https:' ? 443 : 80));
}

function readRecord(file: string): ServerRecord | undefined {
  let recorded: unknown;
  try {
    recorded = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return undefined; // No server has run on this data directory (or the file is unreadable).
  }
  if (typeof recorded !== 'object' || recorded === null) return undefined;
  const { pid } = recorded as { pid?: unknown };
  if (typeof pid !== 'number' || !Number.isInteger(pid) || pid <= 0) return undefined;
  return { ...recorded, pid };
}

/** What `hub serve` recorded, when the process that recorded it is still running. */
function runningServer(dataDir: string): ServerRecord | undefined {
  const recorded = readRecord(path.join(dataDir, SERVER_FILE));
  return recorded && processAlive(recorded.pid) ? recorded : undefined;
}

/** Signal 0 checks the process exists; EPERM means it does, under another user. */
function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** On a stop: removes the record when this process wrote it, never another server's. */
export function forgetServer(dataDir: string): void {
  if (readRecord(path.join(dataDir, SERVER_FILE))?.pid !== process.pid) return;
  try {
    fs.rmSync(path.join(dataDir, SERVER_FILE), { force: true });
  } catch {
    // Left behind, it names a pid no longer running and is ignored.
  }
}

/**
 * The base URL for links the host console prints: the one the server running on this data
 * directory recorded, else the configuration's (`HUB_BASE_URL`, else the one `HOST` and `PORT`
 * give). A record left by a server that has stopped (its pid no longer runs) is ignored.
 */
export function serverBaseUrl(config: Pick<Config, 'dataDir' | 'baseUrl'>): string {
  const recorded = runningServer(config.dataDir)?.baseUrl;
  if (typeof recorded === 'string' && /^https?:\/\//.test(recorded)) return recorded;
  return config.baseUrl;
}
