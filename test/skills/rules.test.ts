import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/errors/api-error.js';
import { contentDigest, manifestText, sha256Hex } from '../../src/skills/digest.js';
import { inspectSkill } from '../../src/skills/ingest.js';
import { parseSkillManifest } from '../../src/skills/manifest.js';
import { checkPaths, collisionKey, pathProblem } from '../../src/skills/paths.js';
import { expectedDigest } from './support.js';

function invalid(run: () => unknown): string {
  try {
    run();
  } catch (err) {
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).status).toBe(422);
    expect((err as ApiError).code).toBe('invalid_skill');
    expect((err as ApiError).message).not.toContain('\n');
    return (err as ApiError).message;
  }
  throw new Error('expected invalid_skill');
}

const NO_LIMITS = { fileSize: null, attachmentCount: null, archiveExpansion: null };

describe('path rules', () => {
  it('accepts relative POSIX paths within the bounds', () => {
    for (const p of [
      'SKILL.md',
      'a/b/c.md',
      '.hidden',
      'a/.b/..c',
      'with space.md',
      'ünïcødé/日本.md',
      'x'.repeat(255),
      Array.from({ length: 16 }, () => 'd').join('/'),
    ]) {
      expect(pathProblem(p), p).toBeNull();
    }
  });

  it('refuses each unsafe form with its reason', () => {
    const cases: Array<[string, RegExp]> = [
      ['', /empty/],
      ['..', /"\.\." segment/],
      ['a/../b', /"\.\." segment/],
      ['.', /"\." segment/],
      ['/a', /absolute/],
      ['a\\b', /backslash/],
      ['a\u0000b', /NUL/],
      ['a\u001fb', /control/],
      ['a\u007fb', /control/],
      ['a\u0085b', /control/],
      ['a\u2028b', /control/],
      ['a\ud800b', /lone surrogate/],
      ['a//b', /empty segment/],
      ['a/', /ends with/],
      ['x'.repeat(256), /segment longer than 255 bytes/],
      ['é'.repeat(128), /segment longer than 255 bytes/],
      [Array.from({ length: 17 }, () => 'd').join('/'), /deeper than 16/],
      [Array.from({ length: 6 }, () => 'y'.repeat(100)).join('/'), /longer than 512 bytes/],
    ];
    for (const [p, reason] of cases) expect(pathProblem(p), JSON.stringify(p)).toMatch(reason);
  });

  it('counts paths equal under NFC and case folding as duplicates, and a file that is also a directory', () => {
    expect(collisionKey('Caf\u00e9.MD')).toBe(collisionKey('cafe\u0301.md'));
    expect(collisionKey('STRASSE')).toBe(collisionKey('straße'));
    expect(invalid(() => checkPaths(['a.md', 'b.md', 'A.md']))).toMatch(/"a\.md" and "A\.md" name the same file/);
    expect(invalid(() => checkPaths(['x/y', 'X']))).toMatch(/"X" is also a directory \(of "x\/y"\)/);
    expect(() => checkPaths(['a', 'b/a', 'ab/c'])).not.toThrow();
  });
});

describe('content address', () => {
  it('is the sha256 of what sha256sum prints for the files in LC_ALL=C order', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'skill-digest-'));
    try {
      const files = [
        { path: 'b.md', content: 'bee\n' },
        { path: 'B.md', content: 'Bee\n' },
        { path: 'a/z.md', content: '' },
        { path: 'a-b.md', content: 'dash' },
        { path: 'ä.md', content: 'umlaut' },
      ];
      for (const f of files) {
        fs.mkdirSync(path.dirname(path.join(dir, f.path)), { recursive: true });
        fs.writeFileSync(path.join(dir, f.path), f.content);
      }
      const hashes = files.map((f) => ({ path: f.path, sha256: sha256Hex(f.content) }));
      const printed = execFileSync('bash', ['-c', "find . -type f | sed 's|^./||' | LC_ALL=C sort | xargs sha256sum"], {
        cwd: dir,
        encoding: 'utf8',
      });
      expect(manifestText(hashes)).toBe(printed);
      expect(contentDigest(hashes)).toBe(sha256Hex(printed));
      expect(contentDigest(hashes)).toBe(expectedDigest(files));
      expect(manifestText(hashes).split('\n')[0]).toMatch(/^[0-9a-f]{64} {2}B\.md$/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('does not depend on the order files are given in, and the same text and bytes hash alike', () => {
    const files = [
      { path: 'SKILL.md', content: '---\n---\n' },
      { path: 'z', content: 'ζ' },
      { path: 'a', content: 'α' },
    ];
    const one = inspectSkill('x', '1', files, NO_LIMITS);
    const two = inspectSkill(
      'x',
      '1',
      [...files].reverse().map((f) => ({ path: f.path, content: Buffer.from(f.content) })),
      NO_LIMITS,
    );
    expect(one.contentDigest).toBe(two.contentDigest);
    expect(one.contentDigest).toBe(expectedDigest(files));
  });
});

describe('SKILL.md front matter', () => {
  it('reads name, description and version; the version as written', () => {
    expect(parseSkillManifest('---\nname: a\ndescription: Does A\nversion: 1.10\n---\n# A\n')).toEqual({
      name: 'a',
      description: 'Does A',
      version: '1.10',
    });
    expect(parseSkillManifest('\uFEFF---\r\nname: b\r\n...\r\nbody')).toEqual({
      name: 'b',
      description: null,
      version: undefined,
    });
    expect(parseSkillManifest('---\n---\n')).toEqual({ name: undefined, description: null, version: undefined });
    expect(parseSkillManifest('---\nversion: "2.0"\nextra: [1, 2]\n---')).toEqual({
      name: undefined,
      description: null,
      version: '2.0',
    });
  });

  it('refuses what is not front matter, not YAML, not a mapping, or has the wrong types', () => {
    expect(invalid(() => parseSkillManifest('# no front matter\n---\nname: a\n---\n'))).toMatch(
      /must begin with YAML front matter/,
    );
    expect(invalid(() => parseSkillManifest('---\nname: a\n'))).toMatch(/front matter/);
    expect(invalid(() => parseSkillManifest('---\nname: a\nname: b\n---\n'))).toMatch(/not valid YAML/);
    expect(invalid(() => parseSkillManifest('---\njust text\n---\n'))).toMatch(/mapping/);
    expect(invalid(() => parseSkillManifest('---\nname: 12\n---\n'))).toMatch(
      /name in SKILL\.md must be a string, got "12"/,
    );
    expect(invalid(() => parseSkillManifest('---\nversion: [1]\n---\n'))).toMatch(/version/);
  });

  it('refuses a name or description that neither database could store', () => {
    expect(invalid(() => parseSkillManifest('---\ndescription: "a\\0b"\n---\n'))).toMatch(
      /description in SKILL\.md holds U\+0000/,
    );
    expect(invalid(() => parseSkillManifest('---\nname: "\\ud800"\n---\n'))).toMatch(
      /name in SKILL\.md holds U\+0000 or a lone surrogate/,
    );
  });

  it('bounds alias expansion', () => {
    const bomb = [
      'a: &a [x, x, x, x, x, x, x, x, x, x]',
      ...Array.from(
        { length: 8 },
        (_, i) =>
          `${String.fromCharCode(98 + i)}: &${String.fromCharCode(98 + i)} [${Array(10)
            .fill(`*${String.fromCharCode(97 + i)}`)
            .join(', ')}]`,
      ),
    ];
    expect(invalid(() => parseSkillManifest(`---\n${bomb.join('\n')}\n---\n`))).toMatch(/cannot be read|alias/i);
  });
});

describe('inspection', () => {
  it('checks the name, the version and the limits before anything else', () => {
    const files = [{ path: 'SKILL.md', content: '---\n---\n' }];
    expect(invalid(() => inspectSkill('Bad', '1', files, NO_LIMITS))).toMatch(/skill name "Bad" must match/);
    expect(invalid(() => inspectSkill('ok', 'a\nb', files, NO_LIMITS))).toMatch(/control characters/);
    expect(invalid(() => inspectSkill('ok', '1', [], NO_LIMITS))).toMatch(/at least SKILL\.md/);
    expect(
      invalid(() => inspectSkill('ok', '1', files, { fileSize: 7, attachmentCount: null, archiveExpansion: null })),
    ).toMatch(/"SKILL\.md" has 8 bytes/);
    expect(
      invalid(() => inspectSkill('ok', '1', [{ path: 'SKILL.md', content: Buffer.from([0xc3, 0x28]) }], NO_LIMITS)),
    ).toMatch(/not UTF-8 text/);
    expect(
      inspectSkill('ok', undefined, [{ path: 'SKILL.md', content: '---\nversion: 3\n---\n' }], NO_LIMITS).version,
    ).toBe('3');
    expect(inspectSkill('ok', undefined, files, NO_LIMITS).version).toBe('0.0.0');
  });
});
