import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../src/errors/api-error.js';
import { removeTree, SkillContentStore } from '../../src/skills/content-store.js';
import { TestHub } from '../support/test-hub.js';
import { expectedDigest, readTree, treeSnapshot, type TextFile } from './support.js';

/**
 * Property tests of the pipeline's safety: hostile file lists are refused with the offending
 * path named, and nothing anywhere changes; safe ones land entirely inside their store entry.
 * The data directory sits 40 levels down in a sandbox, so any escape with `..` would land
 * inside the sandbox, where the snapshot sees it.
 */

let hub: TestHub;
let orgId: string;
let sandbox: string;
let storeRoot: string;

beforeAll(async () => {
  sandbox = fs.mkdtempSync(path.join(os.tmpdir(), 'skill-sandbox-'));
  const dataDir = path.join(sandbox, ...Array.from({ length: 40 }, (_, i) => `level${i}`), 'data');
  fs.mkdirSync(dataDir, { recursive: true });
  hub = await TestHub.start({ config: { dataDir } });
  orgId = (await hub.createOrg('props', 'props-owner')).id;
  storeRoot = path.join(dataDir, 'skills');
});
afterAll(async () => {
  if (sandbox) await removeTree(sandbox);
  await hub?.stop();
});

const skillCount = async () => Number((await hub.services.db('agent_skills').count({ n: '*' }).first())?.n);

// Safe names: lower case (so case folding changes nothing), NFC, never "." or "..".
const segmentChar = fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz0123456789_-', 'é', 'ø', '日', '本', '🚀', ' ');
const dirSegment = fc.array(segmentChar, { minLength: 1, maxLength: 8 }).map((cs) => cs.join('').trim() || 'd');
const fileName = fc.array(segmentChar, { minLength: 1, maxLength: 8 }).map((cs) => `${cs.join('').trim() || 'f'}.md`);
const safePath = fc
  .tuple(fc.array(dirSegment, { maxLength: 4 }), fileName)
  .map(([dirs, name]) => [...dirs, name].join('/'));
const safeFiles = fc
  .uniqueArray(safePath, { minLength: 0, maxLength: 12 })
  .chain((paths) =>
    fc.tuple(
      fc.constant(paths),
      fc.array(fc.string({ unit: 'grapheme', maxLength: 200 }), { minLength: paths.length, maxLength: paths.length }),
    ),
  )
  .map(([paths, contents]) => [
    { path: 'SKILL.md', content: '---\ndescription: property\n---\n' },
    // Directory segments never end in ".md", so no file is also a directory.
    ...paths
      .filter((p) => p !== 'SKILL.md')
      .map((p, i) => ({ path: p, content: contents[i]!.replace(/[\uD800-\uDFFF]/g, '?') })),
  ]);

/** A path that breaks one rule, in some position among safe segments. */
const hostilePath: fc.Arbitrary<string> = fc.oneof(
  fc
    .tuple(fc.array(dirSegment, { maxLength: 2 }), fc.integer({ min: 1, max: 45 }), fileName)
    .map(([pre, ups, name]) => [...pre, ...Array(ups).fill('..'), name].join('/')),
  fc.tuple(dirSegment, fileName).map(([d, f]) => `/${d}/${f}`),
  fc.constantFrom('/etc/passwd', '/', '//x', '..', '../', '../../../../../../../../tmp/pwned'),
  fc.tuple(dirSegment, fileName).map(([d, f]) => `${d}\\..\\${f}`),
  fc
    .tuple(
      dirSegment,
      fc.integer({ min: 0, max: 0x1f }).map((c) => String.fromCharCode(c)),
      fileName,
    )
    .map(([d, c, f]) => `${d}${c}/${f}`),
  fc
    .tuple(dirSegment, fc.constantFrom('\u007f', '\u0085', '\u009f', '\u2028', '\u2029'), fileName)
    .map(([d, c, f]) => `${d}/${c}${f}`),
  fc.tuple(dirSegment, fileName).map(([d, f]) => `${d}//${f}`),
  dirSegment.map((d) => `${d}/`),
  fc.tuple(dirSegment, fileName).map(([d, f]) => `${d}/./${f}`),
  fileName.map((f) => `./${f}`),
  fc.integer({ min: 256, max: 400 }).map((n) => `${'n'.repeat(n)}.md`),
  fc.integer({ min: 130, max: 200 }).map((n) => `${'é'.repeat(n)}.md`),
  fc.integer({ min: 6, max: 9 }).map((n) => Array.from({ length: n }, () => 'p'.repeat(90)).join('/')),
  fc.integer({ min: 17, max: 40 }).map((n) => Array.from({ length: n }, () => 'd').join('/')),
  fileName.map((f) => `${f}\ud800`),
  fc.constant(''),
);

/** A rule-breaking addition to a safe list: one hostile path, or a collision with a path already there. */
const hostileFiles = fc.oneof(
  fc.tuple(safeFiles, hostilePath, fc.nat()).map(([files, bad, at]) => {
    const out: TextFile[] = [...files];
    out.splice(at % (out.length + 1), 0, { path: bad, content: 'hostile' });
    return { files: out, offending: [bad] };
  }),
  fc
    .tuple(safeFiles, fc.constantFrom<'same' | 'upper' | 'nfd' | 'asDir'>('same', 'upper', 'nfd', 'asDir'))
    .map(([files, kind]) => {
      const target = files[files.length - 1]!.path;
      const twin =
        kind === 'same'
          ? target
          : kind === 'upper'
            ? target.toUpperCase()
            : kind === 'nfd'
              ? target.normalize('NFD').toUpperCase()
              : `${target}/inner.md`;
      return { files: [...files, { path: twin, content: 'twin' }], offending: [target, twin] };
    }),
);

describe('skill ingestion under hostile input', () => {
  it('refuses every hostile file list with invalid_skill naming the path, and changes nothing anywhere', async () => {
    const sandboxBefore = treeSnapshot(sandbox);
    const rowsBefore = await skillCount();
    await fc.assert(
      fc.asyncProperty(hostileFiles, async ({ files, offending }) => {
        let error: unknown;
        try {
          await hub.services.skills.install(orgId, 'hostile', { version: '1.0.0', files });
        } catch (err) {
          error = err;
        }
        expect(error).toBeInstanceOf(ApiError);
        expect((error as ApiError).code).toBe('invalid_skill');
        const message = (error as ApiError).message;
        expect(message).not.toContain('\n');
        expect(offending.some((p) => message.includes(JSON.stringify(p)))).toBe(true);
        expect(treeSnapshot(sandbox)).toEqual(sandboxBefore);
        expect(await skillCount()).toBe(rowsBefore);
      }),
      { numRuns: 300 },
    );
  });

  it('never lets the staging step write outside its directory, even when handed unchecked paths', async () => {
    const content = new SkillContentStore(storeRoot);
    await content.init(); // creates the store directory itself, the one thing allowed to appear
    const dotted = fc.oneof(
      fc
        .tuple(fc.array(dirSegment, { maxLength: 3 }), fc.integer({ min: 1, max: 45 }), fileName)
        .map(([pre, ups, name]) => [...pre, ...Array(ups).fill('..'), name].join('/')),
      fc.constantFrom('', '.', '..', '/', '/etc/passwd', 'a//b.md', 'a/', './a.md', 'a/./b.md', 'a/.'),
    );
    await fc.assert(
      fc.asyncProperty(dotted, async (bad) => {
        const before = treeSnapshot(sandbox);
        let staging: string | undefined;
        let error: unknown;
        try {
          staging = await content.populate([
            { path: 'SKILL.md', bytes: Buffer.from('x') },
            { path: bad, bytes: Buffer.from('hostile') },
          ]);
        } catch (err) {
          error = err;
        }
        expect(staging).toBeUndefined();
        expect(String(error)).toMatch(/not a plain relative path inside the staging directory/);
        expect(treeSnapshot(sandbox)).toEqual(before);
      }),
      { numRuns: 100 },
    );
  });
});

describe('skill ingestion of safe input', () => {
  it('stores exactly the given files under their content address and nothing else', async () => {
    let n = 0;
    await fc.assert(
      fc.asyncProperty(safeFiles, async (files) => {
        const before = new Set(treeSnapshot(sandbox));
        const name = `safe-${++n}`;
        const result = await hub.services.skills.install(orgId, name, { version: '1.0.0', files });
        const digest = expectedDigest(files);
        expect(result.content_digest).toBe(digest);
        const entry = path.join(storeRoot, digest);
        expect(
          readTree(entry)
            .map((f) => [f.path, f.content.toString('utf8')])
            .sort(),
        ).toEqual(files.map((f) => [f.path, f.content]).sort());
        // Everything new in the sandbox is inside this entry.
        const entryPrefix = `${path.relative(sandbox, entry)}/`;
        const added = treeSnapshot(sandbox).filter((line) => !before.has(line));
        for (const line of added)
          expect(line.startsWith(entryPrefix) || line.startsWith(`${path.relative(sandbox, entry)}/ `), line).toBe(
            true,
          );
        expect(fs.readdirSync(storeRoot).filter((e) => e.startsWith('.tmp-'))).toEqual([]);
      }),
      { numRuns: 40 },
    );
  });
});
