import type { UnitOfWork } from '../db/unit-of-work.js';
import { MissingEntryError, type EntryFile, type SkillContent, type SkillContentStore } from './content-store.js';
import { DIGEST_PATTERN } from './digest.js';
import { byPathBytes } from './paths.js';

/** Rows per insert: three values each, far below PostgreSQL's 65,535 bind parameters. */
const FILES_PER_INSERT = 500;

/**
 * The skill store of several instances on one PostgreSQL: the database holds every entry
 * (`skill_content_entries` and its `skill_content_files`), so a skill installed through one
 * instance reads back byte for byte through any other. The instance's own directory
 * (`<data>/skills`, a `SkillContentStore`) is a read-through copy: written after the database
 * copy commits, filled on the first read of an entry it lacks.
 *
 * The guarantees of the disk store hold: an entry's row and all its files are inserted in one
 * transaction, so an entry is absent or complete; it is committed before `put` resolves, so
 * before any skill row names it; concurrent puts of one content make one entry (the primary
 * key decides; the loser's insert does nothing), and entries are never changed or removed.
 */
export class DatabaseSkillContent implements SkillContent {
  private ready: Promise<number> | undefined;

  constructor(
    private readonly uow: UnitOfWork,
    private readonly local: SkillContentStore,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  /**
   * Prepares the local copy (removing staging directories a crash left) and uploads the entries
   * only it holds — stored on disk before this instance shared its store — so every instance
   * can read them. Resolves to how many staging directories it removed.
   */
  init(): Promise<number> {
    this.ready ??= (async () => {
      const removed = await this.local.init();
      for (const digest of await this.local.digests()) {
        if (!(await this.has(digest))) await this.insert(digest, await this.local.read(digest));
      }
      return removed;
    })().catch((err: unknown) => {
      this.ready = undefined;
      throw err;
    });
    return this.ready;
  }

  async has(digest: string): Promise<boolean> {
    checkDigest(digest);
    return (await this.uow.executor('skill_content_entries').where({ digest }).first('digest')) !== undefined;
  }

  async put(digest: string, files: readonly EntryFile[]): Promise<boolean> {
    const created = await this.insert(digest, files);
    // The shared copy is committed; the local one only spares this instance a read.
    if (created && !(await this.local.has(digest))) await this.local.put(digest, files);
    return created;
  }

  async read(digest: string): Promise<EntryFile[]> {
    checkDigest(digest);
    try {
      return await this.local.read(digest);
    } catch (err) {
      if (!(err instanceof MissingEntryError)) throw err;
    }
    const files = await this.uow.run(async (trx) => {
      const entry = await trx('skill_content_entries')
        .where({ digest })
        .first<{ file_count: number } | undefined>('file_count');
      if (!entry) return undefined;
      const rows = await trx('skill_content_files')
        .where({ digest })
        .select<Array<{ path: string; bytes: Buffer }>>('path', 'bytes');
      return rows.map((row) => ({ path: row.path, bytes: new Uint8Array(row.bytes) }));
    });
    if (!files) throw new MissingEntryError(digest);
    files.sort((a, b) => byPathBytes(a.path, b.path));
    // Another instance may fill the same directory at the same moment: the rename lets one win.
    await this.local.put(digest, files).catch(() => false);
    return files;
  }

  async digests(): Promise<string[]> {
    return (await this.uow.executor('skill_content_entries').select<Array<{ digest: string }>>('digest')).map(
      (row) => row.digest,
    );
  }

  /** Inserts the entry and its files in one transaction; false when the entry was there already. */
  private insert(digest: string, files: readonly EntryFile[]): Promise<boolean> {
    checkDigest(digest);
    const totalBytes = files.reduce((sum, file) => sum + file.bytes.byteLength, 0);
    return this.uow.run(async (trx) => {
      const inserted = await trx('skill_content_entries')
        .insert({ digest, file_count: files.length, total_bytes: totalBytes, created_at: this.clock().toISOString() })
        .onConflict('digest')
        .ignore()
        .returning('digest');
      if (inserted.length === 0) return false;
      for (let i = 0; i < files.length; i += FILES_PER_INSERT) {
        const batch = files.slice(i, i + FILES_PER_INSERT);
        await trx('skill_content_files').insert(
          batch.map((file) => ({ digest, path: file.path, bytes: Buffer.from(file.bytes) })),
        );
      }
      return true;
    });
  }
}

function checkDigest(digest: string): void {
  if (!DIGEST_PATTERN.test(digest)) throw new Error(`not a content digest: ${JSON.stringify(digest)}`);
}
