// The two checks `npm run lint:docs` runs, each on a small tree of its own: a broken link or
// anchor between the docs fails, and so does a citation of a document outside the repository.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

const SCRIPTS = path.resolve('scripts');
const dirs: string[] = [];

/** A directory holding `files`, a git repository so that the checks can list them. */
function tree(files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'doc-lint-'));
  dirs.push(dir);
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), text);
  }
  spawnSync('git', ['init', '-q'], { cwd: dir });
  return dir;
}

function run(script: string, cwd: string) {
  const { status, stderr } = spawnSync(process.execPath, [path.join(SCRIPTS, script)], { cwd, encoding: 'utf8' });
  return { status, stderr };
}

afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('check-doc-links', () => {
  const page = '# Operating\n\n## Running several `hub serve` instances\n\nText.\n';

  it('passes links to files and headings that exist', () => {
    const dir = tree({
      'README.md': '# Hub\n\nSee [several](docs/operating.md#running-several-hub-serve-instances) and [up](#hub).\n',
      'docs/operating.md': `${page}Back to the [README](../README.md).\n`,
    });
    expect(run('check-doc-links.mjs', dir)).toEqual({ status: 0, stderr: '' });
  });

  it('fails on a missing file and on an anchor no heading makes, naming each', () => {
    const dir = tree({
      'README.md': '# Hub\n\n[gone](docs/gone.md) and [no such part](docs/operating.md#running-several).\n',
      'docs/operating.md': page,
      'docs/other.md': '# Other\n\n[here](#nowhere), but `[code](#is-no-link)`.\n',
    });
    const { status, stderr } = run('check-doc-links.mjs', dir);
    expect(status).toBe(1);
    expect(stderr).toContain('3 broken links');
    expect(stderr).toContain('README.md:3: docs/gone.md: no such file');
    expect(stderr).toContain('README.md:3: docs/operating.md#running-several: no heading');
    expect(stderr).toContain('docs/other.md:3: #nowhere: no heading');
    expect(stderr).not.toContain('is-no-link');
  });
});

describe('check-doc-citations', () => {
  const decisions = '# Decisions\n\n### Request pipeline\n\nWhy.\n';

  it('passes pointers into the repository’s own pages', () => {
    const dir = tree({
      'docs/decisions.md': decisions,
      'src/app.ts': '// The order (docs/decisions.md, "Request pipeline"), and WHOLE_BY_DESIGN stays a name.\n',
    });
    expect(run('check-doc-citations.mjs', dir)).toEqual({ status: 0, stderr: '' });
  });

  it('fails on a design document, an issue, a figure in a comment or a heading the page lacks', () => {
    const dir = tree({
      'docs/decisions.md': decisions,
      'src/a.ts': '// as DESIGN §5 says\n',
      'src/b.ts': "/** The issue's figures. */\n",
      'src/c.ts': '// checked, not sorted (20,000 projects: 3.9 → ~2 ms)\nconst ratio = 3 * 2; // no figure\n',
      'test/c.test.ts': '// (docs/decisions.md, "Rate limits")\n',
      'README.md': '# Hub\n\n## Set-up\n',
      '.env.example': '# Settings (README "Configuration"); (README "Set-up") is there\n',
    });
    const { status, stderr } = run('check-doc-citations.mjs', dir);
    expect(status).toBe(1);
    expect(stderr).toContain('src/a.ts:1: cites a design document outside the repository');
    expect(stderr).toContain('src/b.ts:1: cites an issue');
    expect(stderr).toContain('src/c.ts:1: quotes a measured figure in a comment');
    expect(stderr).not.toContain('src/c.ts:2');
    expect(stderr).toContain('test/c.test.ts:1: points at a heading docs/decisions.md does not have');
    expect(stderr).toContain('.env.example:1: points at a heading README.md does not have: README "Configuration"');
    expect(stderr).not.toContain('Set-up');
  });
});
