import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UnitOfWork } from '../../src/db/unit-of-work.js';
import { MissingEntryError, removeTree, SkillContentStore, type EntryFile } from '../../src/skills/content-store.js';
import { DatabaseSkillContent } from '../../src/skills/database-content-store.js';
import { contentDigest, sha256Hex } from '../../src/skills/digest.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';

/**
 * The skill store of several instances on one database (used on PostgreSQL; the same code runs
 * on SQLite here): two instances with separate disks read each other's entries, entries are
 * complete or absent, and concurrent puts of one content make one entry.
 */
let database: TestDatabase;
const roots: string[] = [];

beforeAll(async () => {
  database = await createTestDatabase({ migrated: true });
});
afterAll(async () => {
  for (const root of roots) await removeTree(root);
  await database.drop();
});

function instance(): { store: DatabaseSkillContent; disk: SkillContentStore } {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'hub-skill-copy-'));
  roots.push(root);
  const disk = new SkillContentStore(path.join(root, 'skills'));
  return { store: new DatabaseSkillContent(new UnitOfWork(database.db), disk), disk };
}

function entry(text: string): { digest: string; files: EntryFile[] } {
  const files = [
    { path: 'SKILL.md', bytes: Buffer.from(`---\nname: x\n---\n${text}\n`) },
    { path: 'docs/a.md', bytes: Buffer.from(`ä ${text}`) },
  ];
  return { digest: contentDigest(files.map((f) => ({ path: f.path, sha256: sha256Hex(f.bytes) }))), files };
}

const text = (files: EntryFile[]) => files.map((f) => [f.path, Buffer.from(f.bytes).toString('utf8')]);

describe('DatabaseSkillContent', () => {
  it('reads back through another instance, byte for byte, and fills that instance’s copy', async () => {
    const [a, b] = [instance(), instance()];
    const { digest, files } = entry('shared');
    expect(await a.store.put(digest, files)).toBe(true);
    expect(await a.disk.has(digest)).toBe(true);
    expect(await b.disk.has(digest)).toBe(false);
    expect(text(await b.store.read(digest))).toEqual(text(files));
    expect(await b.disk.has(digest)).toBe(true);
    expect(await b.store.digests()).toContain(digest);
  });

  it('makes one entry of concurrent puts of one content through several instances', async () => {
    const instances = [instance(), instance(), instance()];
    const { digest, files } = entry('concurrent');
    const created = await Promise.all(
      instances.flatMap(({ store }) => [store.put(digest, files), store.put(digest, files)]),
    );
    expect(created.filter(Boolean)).toHaveLength(1);
    expect(Number((await database.db('skill_content_entries').where({ digest }).count({ n: '*' }).first())?.n)).toBe(1);
    expect(Number((await database.db('skill_content_files').where({ digest }).count({ n: '*' }).first())?.n)).toBe(2);
  });

  it('leaves no entry when the insert fails part-way: absent or complete', async () => {
    const { store } = instance();
    const { digest, files } = entry('broken');
    // The same path twice breaks the files' primary key after the entry row went in.
    await expect(store.put(digest, [...files, files[0]!])).rejects.toThrow();
    expect(await store.has(digest)).toBe(false);
    await expect(store.read(digest)).rejects.toBeInstanceOf(MissingEntryError);
    expect(await store.put(digest, files)).toBe(true);
  });

  it('uploads at start-up the entries only its disk holds (stored before the store was shared)', async () => {
    const { store, disk } = instance();
    const { digest, files } = entry('disk only');
    await disk.put(digest, files);
    expect(await store.has(digest)).toBe(false);
    await store.init();
    expect(await store.has(digest)).toBe(true);
    expect(text(await instance().store.read(digest))).toEqual(text(files));
  });
});
