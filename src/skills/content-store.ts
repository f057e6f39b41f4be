import fs from 'node:fs/promises';
import path from 'node:path';
import { DIGEST_PATTERN } from './digest.js';
import { byPathBytes } from './paths.js';

/** One file of a store entry: its relative POSIX path and its bytes. */
export interface EntryFile {
  path: string;
  bytes: Uint8Array;
}

/** A store entry the database names but the disk lacks: an operator removed it, or the volume was swapped. */
export class MissingEntryError extends Error {
  constructor(readonly digest: string) {
    super(`skill store entry ${digest} is missing`);
  }
}

/**
 * The content-addressed skill store as the ingestion pipeline and the reads see it. Entries are
 * immutable and appear whole or not at all. `SkillContentStore` keeps them on disk (one process
 * on SQLite); `DatabaseSkillContent` (database-content-store.ts) keeps them in PostgreSQL, so
 * every instance on that database reads what any of them stored.
 */
export interface SkillContent {
  /** Prepares the store; resolves to how many leftovers of an interrupted install it removed. */
  init(): Promise<number>;
  has(digest: string): Promise<boolean>;
  /**
   * Stores the files as the entry `digest` unless it is there already; durable before it
   * resolves. Resolves to true when this call created the entry (false: deduplicated).
   */
  put(digest: string, files: readonly EntryFile[]): Promise<boolean>;
  /** The files of an entry, sorted by path bytewise; MissingEntryError when there is none. */
  read(digest: string): Promise<EntryFile[]>;
  /** The digests of the entries present, in no particular order. */
  digests(): Promise<string[]>;
}

/** Staging directories: `.tmp-<pid>-<random>` beside the entries, on the same volume, so the rename is atomic. */
const TEMP_PREFIX = '.tmp-';
const TEMP_OWNER = /^\.tmp-(\d+)-/;
/** No install takes this long: a staging directory this old is stale whoever made it. */
const STALE_AFTER_MS = 6 * 60 * 60 * 1000;
const FILE_MODE = 0o444;
const DIR_MODE = 0o555;
/** Files written or read at once: enough to overlap the fsyncs, few enough to stay far from the fd limit. */
const IO_PARALLELISM = 16;

/** Staging directories of this process that are being populated or placed, whatever store instance made them. */
const liveStaging = new Set<string>();

/**
 * The immutable, content-addressed skill store on disk: `<root>/<digest>/<files…>`. An entry
 * appears by one atomic rename of a fully written and synced staging directory, so it is
 * either absent or complete; once there it is read-only (files 0444, directories 0555) and
 * never modified or removed by the service. Staging directories left by a crash are removed
 * by `init`.
 */
export class SkillContentStore implements SkillContent {
  private ready: Promise<number> | undefined;

  constructor(readonly root: string) {}

  /**
   * Creates the store directory and removes the staging directories of processes that are gone
   * (their owner's pid is not running, or is this process but not one of its live stagings) or
   * that are older than any install. Runs once per instance; resolves to how many it removed.
   */
  init(): Promise<number> {
    this.ready ??= this.removeStaleStaging().catch((err: unknown) => {
      this.ready = undefined;
      throw err;
    });
    return this.ready;
  }

  /** Where the entry of this digest lives (whether or not it exists). */
  entryPath(digest: string): string {
    if (!DIGEST_PATTERN.test(digest)) throw new Error(`not a content digest: ${JSON.stringify(digest)}`);
    return path.join(this.root, digest);
  }

  async has(digest: string): Promise<boolean> {
    try {
      return (await fs.stat(this.entryPath(digest))).isDirectory();
    } catch (err) {
      if (isCode(err, 'ENOENT')) return false;
      throw err;
    }
  }

  /** Populates a staging directory and renames it into place (see `populate` and `place`). */
  async put(digest: string, files: readonly EntryFile[]): Promise<boolean> {
    const staging = await this.populate(files);
    return this.place(staging, digest);
  }

  /**
   * Writes the files into a fresh private staging directory (mode 0700 while it fills), each
   * created exclusively, made read-only and synced; then syncs and seals the directories. The
   * paths must already have passed the path rules; each target is still checked to lie inside
   * the staging directory. Returns the staging directory, which the caller must `place` or
   * `discard`. On failure nothing is left behind.
   */
  async populate(files: readonly EntryFile[]): Promise<string> {
    await this.init();
    const staging = await fs.mkdtemp(path.join(this.root, `${TEMP_PREFIX}${process.pid}-`));
    liveStaging.add(staging);
    try {
      const directories = directoriesOf(files);
      for (const dir of directories) await fs.mkdir(inside(staging, dir), { mode: 0o700 });
      await forEachLimited(files, IO_PARALLELISM, (file) => writeReadOnly(inside(staging, file.path), file.bytes));
      // Deepest first: a directory is synced once everything in it is, and sealed last.
      for (const dir of [...directories].reverse()) await seal(inside(staging, dir));
      await seal(staging);
      return staging;
    } catch (err) {
      await this.discard(staging);
      throw err;
    }
  }

  /**
   * Renames a populated staging directory into place as the entry `digest`, then syncs the store
   * directory so the entry outlives a power cut before any database row names it. When the
   * entry is already there (a concurrent install of the same content won the rename) the staging
   * copy is dropped. Resolves to true when this call created the entry.
   */
  async place(staging: string, digest: string): Promise<boolean> {
    const entry = this.entryPath(digest);
    try {
      await fs.rename(staging, entry);
    } catch (err) {
      await this.discard(staging);
      // Renaming a directory onto a non-empty one fails: that entry holds this very content.
      if (isCode(err, 'ENOTEMPTY') || isCode(err, 'EEXIST')) return false;
      throw err;
    }
    liveStaging.delete(staging);
    await syncDirectory(this.root);
    return true;
  }

  /** Removes a staging directory that will not be placed. */
  async discard(staging: string): Promise<void> {
    try {
      await removeTree(staging);
    } finally {
      liveStaging.delete(staging);
    }
  }

  /** The files of an entry, sorted by path bytewise. */
  async read(digest: string): Promise<EntryFile[]> {
    const entry = this.entryPath(digest);
    let paths: string[];
    try {
      paths = await listFiles(entry);
    } catch (err) {
      if (isCode(err, 'ENOENT')) throw new MissingEntryError(digest);
      throw err;
    }
    const files: EntryFile[] = new Array(paths.length);
    await forEachLimited(
      paths.map((p, i) => [p, i] as const),
      IO_PARALLELISM,
      async ([p, i]) => {
        files[i] = { path: p, bytes: await fs.readFile(path.join(entry, ...p.split('/'))) };
      },
    );
    return files.sort((a, b) => byPathBytes(a.path, b.path));
  }

  /** The digests of the entries present, in no particular order. */
  async digests(): Promise<string[]> {
    try {
      return (await fs.readdir(this.root)).filter((name) => DIGEST_PATTERN.test(name));
    } catch (err) {
      if (isCode(err, 'ENOENT')) return [];
      throw err;
    }
  }

  private async removeStaleStaging(): Promise<number> {
    await fs.mkdir(this.root, { recursive: true });
    let removed = 0;
    for (const name of await fs.readdir(this.root)) {
      if (!name.startsWith(TEMP_PREFIX)) continue;
      const staging = path.join(this.root, name);
      if (liveStaging.has(staging)) continue;
      if (!(await isStale(staging, name))) continue;
      await removeTree(staging);
      removed += 1;
    }
    return removed;
  }
}

async function isStale(staging: string, name: string): Promise<boolean> {
  const owner = TEMP_OWNER.exec(name);
  // This process's own stagings are all in liveStaging; one named by its pid but absent there
  // was left by an earlier process that had the same pid (a container's pid 1, say).
  if (!owner || Number(owner[1]) === process.pid || !isRunning(Number(owner[1]))) return true;
  try {
    return Date.now() - (await fs.stat(staging)).mtimeMs > STALE_AFTER_MS;
  } catch (err) {
    if (isCode(err, 'ENOENT')) return false;
    throw err;
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it runs, as another user.
    return isCode(err, 'EPERM');
  }
}

/** The directories the files need, parents before children. */
function directoriesOf(files: readonly EntryFile[]): string[] {
  const dirs = new Set<string>();
  for (const file of files) {
    const segments = file.path.split('/');
    for (let depth = 1; depth < segments.length; depth++) dirs.add(segments.slice(0, depth).join('/'));
  }
  return [...dirs].sort((a, b) => a.split('/').length - b.split('/').length || byPathBytes(a, b));
}

/**
 * The absolute target of a relative path inside `dir`. The last line of defence behind the path
 * rules: a path that is not already canonical (`..`, `.`, empty segments, absolute) is refused,
 * so nothing can resolve outside `dir` or onto `dir` itself.
 */
function inside(dir: string, relative: string): string {
  const target = path.resolve(dir, ...relative.split('/'));
  if (!target.startsWith(dir + path.sep) || path.relative(dir, target).split(path.sep).join('/') !== relative) {
    throw new Error(
      `refusing a path that is not a plain relative path inside the staging directory: ${JSON.stringify(relative)}`,
    );
  }
  return target;
}

async function writeReadOnly(target: string, bytes: Uint8Array): Promise<void> {
  // `wx`: create, never follow or reuse anything already there.
  const handle = await fs.open(target, 'wx', FILE_MODE);
  try {
    await handle.writeFile(bytes);
    await handle.chmod(FILE_MODE);
    await handle.sync();
  } finally {
    await handle.close();
  }
}

async function seal(dir: string): Promise<void> {
  await fs.chmod(dir, DIR_MODE);
  await syncDirectory(dir);
}

/** fsync of a directory, so the names in it are durable; a file system that cannot is skipped. */
async function syncDirectory(dir: string): Promise<void> {
  const handle = await fs.open(dir, 'r');
  try {
    await handle.sync();
  } catch (err) {
    if (!isCode(err, 'EINVAL') && !isCode(err, 'EISDIR') && !isCode(err, 'ENOTSUP')) throw err;
  } finally {
    await handle.close();
  }
}

/** Relative POSIX paths of the regular files under `root`. */
async function listFiles(root: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (dir: string, prefix: string): Promise<void> => {
    for (const entry of await fs.readdir(dir, { withFileTypes: true })) {
      const relative = prefix + entry.name;
      if (entry.isDirectory()) await walk(path.join(dir, entry.name), `${relative}/`);
      else if (entry.isFile()) out.push(relative);
      else throw new Error(`skill store entry ${root} holds ${JSON.stringify(relative)}, which is not a regular file`);
    }
  };
  await walk(root, '');
  return out;
}

/**
 * Removes a directory tree that may hold read-only directories (a sealed staging copy, or a
 * store in a test's data directory): directories are made writable first, which removal needs
 * when not running as root. Symbolic links are removed, never followed.
 */
export async function removeTree(dir: string): Promise<void> {
  const unseal = async (current: string): Promise<void> => {
    await fs.chmod(current, 0o700);
    for (const entry of await fs.readdir(current, { withFileTypes: true })) {
      if (entry.isDirectory()) await unseal(path.join(current, entry.name));
    }
  };
  try {
    await unseal(dir);
  } catch (err) {
    if (!isCode(err, 'ENOENT')) throw err;
  }
  await fs.rm(dir, { recursive: true, force: true });
}

/**
 * Runs `work` on the items, at most `limit` at a time. After a failure no new item starts, and
 * the first error is thrown only once every started item has settled, so a caller cleaning up
 * never races a write still in flight.
 */
async function forEachLimited<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  let failure: { error: unknown } | undefined;
  const worker = async (): Promise<void> => {
    while (!failure && next < items.length) {
      const item = items[next++]!;
      try {
        await work(item);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  if (failure) throw failure.error;
}

const isCode = (err: unknown, code: string): boolean => (err as NodeJS.ErrnoException | null)?.code === code;
