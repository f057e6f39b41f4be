import { describe, expect, it } from 'vitest';
import { frontMatterValue, readSkillFiles, stripCommonTop, suggestSkillName } from './skill-upload';

const blob = (bytes: string | Uint8Array<ArrayBuffer>) => new Blob([bytes]);

describe('skill upload', () => {
  it('strips the picked folder so SKILL.md lands at the root', () => {
    expect(stripCommonTop(['pdf/SKILL.md', 'pdf/lib/a.js'])).toEqual({ top: 'pdf', paths: ['SKILL.md', 'lib/a.js'] });
    expect(stripCommonTop(['skills/pdf/SKILL.md', 'skills/pdf/x'])).toEqual({ top: 'pdf', paths: ['SKILL.md', 'x'] });
    expect(stripCommonTop(['SKILL.md', 'lib/a.js'])).toEqual({ top: null, paths: ['SKILL.md', 'lib/a.js'] });
    expect(stripCommonTop(['a/SKILL.md', 'b/x'])).toEqual({ top: null, paths: ['a/SKILL.md', 'b/x'] });
    expect(stripCommonTop([])).toEqual({ top: null, paths: [] });
  });

  it('reads UTF-8 text byte for byte (a BOM kept) and names the files that are not text', async () => {
    const read = await readSkillFiles([
      { path: 'demo/z.txt', file: blob('\uFEFFhello\r\n') },
      { path: 'demo/SKILL.md', file: blob('---\nname: demo\n---\n') },
      { path: 'demo/logo.png', file: blob(new Uint8Array([0x89, 0x50, 0xff, 0xfe])) },
    ]);
    expect(read.top).toBe('demo');
    expect(read.files).toEqual([
      { path: 'SKILL.md', content: '---\nname: demo\n---\n' },
      { path: 'z.txt', content: '\uFEFFhello\r\n' },
    ]);
    expect(read.notText).toEqual(['logo.png']);
  });

  it('suggests the name and version from the front matter and the folder', () => {
    const md = '---\nname: "pdf-tools"\nversion: 1.10\ndescription: x\n---\n# PDF';
    expect(frontMatterValue(md, 'version')).toBe('1.10');
    expect(frontMatterValue(md, 'name')).toBe('pdf-tools');
    expect(frontMatterValue('# no front matter', 'name')).toBeNull();
    expect(suggestSkillName('PDF Tools')).toBe('pdf-tools');
  });
});
