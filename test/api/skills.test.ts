import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeTree } from '../../src/skills/content-store.js';
import { SkillService } from '../../src/skills/service.js';
import { SkillStore } from '../../src/skills/store.js';
import { SkillContentStore } from '../../src/skills/content-store.js';
import { SkillIngestion } from '../../src/skills/ingest.js';
import type { Db } from '../../src/db/connect.js';
import { UnitOfWork } from '../../src/db/unit-of-work.js';
import { errorBody, expectError, okBody } from '../support/assertions.js';
import { cliEnv, runHub } from '../support/hub-cli.js';
import { seedOrg, type OrgActor, type OrgFixture } from '../support/org-fixture.js';
import { TestHub } from '../support/test-hub.js';
import { expectedDigest, readTree, skillMd, storeProblems, treeSnapshot, type TextFile } from '../skills/support.js';

let hub: TestHub;
let acme: OrgFixture;
let globex: OrgFixture;
let storeRoot: string;
let env: NodeJS.ProcessEnv;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'skills-api-'));
let counter = 0;
const unique = (prefix: string) => `${prefix}-${++counter}`;

beforeAll(async () => {
  hub = await TestHub.start();
  [acme, globex] = [await seedOrg(hub, 'acme'), await seedOrg(hub, 'globex')];
  storeRoot = path.join(hub.database.dataDir, 'skills');
  env = cliEnv(hub.database.dataDir, hub.database.databaseUrl);
});
afterAll(async () => {
  // Entries are read-only; removing them needs writable directories unless running as root.
  if (storeRoot) await removeTree(storeRoot);
  await hub?.stop();
  fs.rmSync(tmp, { recursive: true, force: true });
});

const install = (org: OrgFixture, name: string, files: TextFile[], version = '1.0.0', actor: OrgActor = 'admin') =>
  org.call(actor, 'installAgentSkill', { path: { name }, body: { version, files } });

const listed = async (org: OrgFixture) => (await okBody(org.call('admin', 'listAgentSkills'))).skills;
/** The listed row of the skill `name`; fails the test when there is none. */
async function rowOf(org: OrgFixture, name: string) {
  const row = (await listed(org)).find((s) => s.name === name);
  if (!row) throw new Error(`${org.slug} lists no skill ${name}`);
  return row;
}

/** The whole store directory (entries, staging) and every skill row: a rejected install must change neither. */
async function snapshot(): Promise<string> {
  const rows = await hub.services.db('agent_skills').select().orderBy('id');
  return JSON.stringify({ store: treeSnapshot(storeRoot), rows });
}

function sampleFiles(name: string, description = 'Reviews code'): TextFile[] {
  return [
    skillMd(name, description),
    { path: 'scripts/check.sh', content: '#!/bin/sh\necho checking\n' },
    { path: 'docs/guide.md', content: '# Guide\n\nÜbersicht — 日本語 — 🚀\n' },
    { path: 'docs/deep/nested/note.txt', content: 'deep\r\nwindows line\r\n' },
    { path: 'empty.txt', content: '' },
  ];
}

async function seedRole(org: OrgFixture, roleId: string, skillIds: string[]): Promise<string> {
  const id = randomUUID();
  const at = hub.clock.now().toISOString();
  await hub.services.db('agent_roles').insert({
    id,
    organization_id: org.id,
    role_id: roleId,
    label: roleId,
    sort_order: 0,
    is_default: false,
    created_at: at,
    updated_at: at,
  });
  if (skillIds.length)
    await hub.services
      .db('agent_role_skills')
      .insert(skillIds.map((skill_id) => ({ role_id: id, skill_id, created_at: at })));
  return id;
}

async function seedSession(
  org: OrgFixture,
  projectId: string,
  roleId: string,
  archivedAt: string | null = null,
): Promise<string> {
  const id = unique('session');
  await hub.services.db('agent_sessions').insert({
    id,
    organization_id: org.id,
    project_id: projectId,
    provider: 'anthropic',
    role_id: roleId,
    model: 'model-a',
    title: null,
    run_count: 1,
    created_at: '2026-01-01T00:00:00.000Z',
    updated_at: '2026-01-01T00:00:00.000Z',
    archived_at: archivedAt,
  });
  return id;
}

const archivedAtOf = async (sessionId: string) =>
  (await hub.services.db('agent_sessions').where({ id: sessionId }).first('archived_at')).archived_at as string | null;

describe('PUT /agent-skills/{name}', () => {
  it(
    'installs: the content address is the sha256 of the sha256sum ' +
      'manifest, and the row carries the front matter description',
    async () => {
      const files = sampleFiles('reviewer');
      const result = await okBody(install(acme, 'reviewer', files, '1.2.0'));
      expect(result).toEqual({ id: expect.any(String), name: 'reviewer', contentDigest: expectedDigest(files) });
      expect(await rowOf(acme, 'reviewer')).toEqual({
        id: result.id,
        name: 'reviewer',
        version: '1.2.0',
        description: 'Reviews code',
        contentDigest: result.contentDigest,
        disabledAt: null,
        libraryFolderId: null,
        createdAt: hub.clock.now().toISOString(),
        updatedAt: hub.clock.now().toISOString(),
        boundRoleIds: [],
      });
      expect(storeProblems(storeRoot)).toEqual([]);
    },
  );

  it('stores a read-only entry named by the digest, which sha256sum verifies', async () => {
    const files = sampleFiles('verified');
    const { contentDigest } = await okBody(install(acme, 'verified', files));
    const entry = path.join(storeRoot, contentDigest);
    expect(
      readTree(entry)
        .map((f) => [f.path, f.content.toString('utf8')])
        .sort(),
    ).toEqual(files.map((f) => [f.path, f.content]).sort());
    for (const line of treeSnapshot(entry))
      expect(line).toMatch(line.split(' ')[0]!.endsWith('/') ? / 555$/ : / 444 \d+$/);
    expect(fs.statSync(entry).mode & 0o777).toBe(0o555);
    const verified = execFileSync(
      'bash',
      ['-c', "find . -type f | sed 's|^./||' | LC_ALL=C sort | xargs sha256sum | sha256sum"],
      { cwd: entry, encoding: 'utf8' },
    );
    expect(verified).toBe(`${contentDigest}  -\n`);
  });

  it(
    'replaces: same id and creation time, new version, ' + 'digest and description; the old entry stays untouched',
    async () => {
      const first = await okBody(install(acme, 'evolving', sampleFiles('evolving', 'First')));
      const created = await rowOf(acme, 'evolving');
      const oldEntry = treeSnapshot(path.join(storeRoot, first.contentDigest));
      hub.clock.advance(60_000);
      const files = [...sampleFiles('evolving', 'Second'), { path: 'docs/new.md', content: 'new\n' }];
      const second = await okBody(install(acme, 'evolving', files, '2.0.0'));
      expect(second).toEqual({ id: first.id, name: 'evolving', contentDigest: expectedDigest(files) });
      expect(second.contentDigest).not.toBe(first.contentDigest);
      expect(await rowOf(acme, 'evolving')).toMatchObject({
        id: first.id,
        version: '2.0.0',
        description: 'Second',
        contentDigest: second.contentDigest,
        createdAt: created.createdAt,
        updatedAt: hub.clock.now().toISOString(),
      });
      expect(treeSnapshot(path.join(storeRoot, first.contentDigest))).toEqual(oldEntry);
      // A manifest without a description clears it: the stored content is what labels the skill.
      await okBody(install(acme, 'evolving', [skillMd('evolving')], '3.0.0'));
      expect((await rowOf(acme, 'evolving')).description).toBeNull();
    },
  );

  it('a reinstall of what the skill holds writes nothing; the content under a new version is written', async () => {
    const files = sampleFiles('steady');
    const first = await okBody(install(acme, 'steady', files, '1.0.0'));
    const installed = await rowOf(acme, 'steady');
    hub.clock.advance(60_000);
    expect(await okBody(install(acme, 'steady', files, '1.0.0'))).toEqual(first);
    expect(await rowOf(acme, 'steady')).toEqual(installed);
    // The same content under another version is a change: the row takes it, and the time.
    expect(await okBody(install(acme, 'steady', files, '1.0.1'))).toEqual(first);
    expect(await rowOf(acme, 'steady')).toEqual({
      ...installed,
      version: '1.0.1',
      updatedAt: hub.clock.now().toISOString(),
    });
  });

  it('deduplicates identical content across names and organizations: one entry, one digest', async () => {
    const files = (name: string) => [
      { path: 'SKILL.md', content: '---\ndescription: shared\n---\nShared body.\n' },
      { path: 'a.txt', content: name === 'x' ? 'x' : 'same' },
    ];
    const before = fs.readdirSync(storeRoot).length;
    const a = await okBody(install(acme, 'shared-one', files('a')));
    const b = await okBody(install(acme, 'shared-two', files('a')));
    const c = await okBody(install(globex, 'shared-one', files('a')));
    expect(new Set([a.contentDigest, b.contentDigest, c.contentDigest]).size).toBe(1);
    expect(new Set([a.id, b.id, c.id]).size).toBe(3);
    expect(fs.readdirSync(storeRoot).length).toBe(before + 1);
  });

  it('keeps a disabled skill disabled when new content is installed over it', async () => {
    await okBody(install(acme, 'dormant', [skillMd('dormant')]));
    await okBody(acme.call('admin', 'updateAgentSkill', { path: { name: 'dormant' }, body: { disabled: true } }));
    const disabledAt = (await rowOf(acme, 'dormant')).disabledAt;
    hub.clock.advance(1_000);
    await okBody(install(acme, 'dormant', [skillMd('dormant', 'new content')], '2.0.0'));
    expect(await rowOf(acme, 'dormant')).toMatchObject({ version: '2.0.0', description: 'new content', disabledAt });
  });

  it('refuses a manifest problem with 422 invalid_skill and writes nothing', async () => {
    const cases: Array<[string, TextFile[], RegExp]> = [
      ['no SKILL.md', [{ path: 'README.md', content: 'x' }], /no SKILL\.md at its root/],
      ['SKILL.md not at the root', [{ path: 'sub/SKILL.md', content: '---\n---\n' }], /no SKILL\.md/],
      ['lower-case skill.md', [{ path: 'skill.md', content: '---\n---\n' }], /no SKILL\.md/],
      ['no front matter', [{ path: 'SKILL.md', content: '# Title\n' }], /front matter/],
      ['unclosed front matter', [{ path: 'SKILL.md', content: '---\nname: bad-manifest\n' }], /front matter/],
      ['invalid YAML', [{ path: 'SKILL.md', content: '---\nname: [unclosed\n---\n' }], /not valid YAML/],
      ['a list, not a mapping', [{ path: 'SKILL.md', content: '---\n- a\n- b\n---\n' }], /mapping/],
      ['another name', [skillMd('someone-else')], /"someone-else", not the skill name "bad-manifest"/],
      [
        'a description that is not text',
        [{ path: 'SKILL.md', content: '---\ndescription: [a, b]\n---\n' }],
        /description .* must be a string/,
      ],
      [
        'a description too long',
        [{ path: 'SKILL.md', content: `---\ndescription: ${'x'.repeat(2001)}\n---\n` }],
        /longer than 2000/,
      ],
    ];
    for (const [label, files, message] of cases) {
      const before = await snapshot();
      const res = await install(acme, 'bad-manifest', files);
      expectError(res, 422, 'invalid_skill');
      expect(errorBody(res).error.message, label).toMatch(message);
      expect(await snapshot(), label).toBe(before);
    }
  });

  it(
    'refuses U+0000 or a lone surrogate in a path or a file with 400, ' + 'like any string of a body, writing nothing',
    async () => {
      const cases: TextFile[] = [
        { path: 'nul\u0000.md', content: 'x' },
        { path: 'a.txt', content: 'x\u0000y' },
        { path: 'a.txt', content: 'x\ud800y' },
      ];
      for (const file of cases) {
        const before = await snapshot();
        const res = await install(acme, 'hostile-text', [skillMd('hostile-text'), file]);
        expectError(res, 400, 'validation_failed');
        expect(await snapshot(), JSON.stringify(file)).toBe(before);
      }
    },
  );

  it('refuses unsafe or colliding paths with 422 invalid_skill naming the path, writing nothing', async () => {
    const cases: Array<[string, string[]]> = [
      ['../escape.md', ['"../escape.md"', '".." segment']],
      ['docs/../../escape.md', ['".." segment']],
      ['/etc/passwd', ['"/etc/passwd"', 'absolute']],
      ['docs\\win.md', ['"docs\\\\win.md"', 'backslash']],
      ['line\nbreak.md', ['"line\\nbreak.md"', 'control character']],
      ['tab\t.md', ['control character']],
      ['a//b.md', ['"a//b.md"', 'empty segment']],
      ['docs/', ['"docs/"', 'ends with "/"']],
      ['./a.md', ['"." segment']],
      ['a/./b.md', ['"." segment']],
      [`${'s'.repeat(256)}.md`, ['longer than 255 bytes']],
      [`${'é'.repeat(300)}`, ['longer than 512 bytes']],
      [Array.from({ length: 17 }, () => 'd').join('/'), ['deeper than 16 levels']],
    ];
    for (const [bad, fragments] of cases) {
      const before = await snapshot();
      const res = await install(acme, 'hostile', [skillMd('hostile'), { path: bad, content: 'x' }]);
      expectError(res, 422, 'invalid_skill');
      for (const fragment of fragments) expect(errorBody(res).error.message, JSON.stringify(bad)).toContain(fragment);
      expect(await snapshot(), JSON.stringify(bad)).toBe(before);
    }
    const collisions: Array<[string[], string]> = [
      [['notes.md', 'notes.md'], 'appears twice'],
      [['README.md', 'readme.md'], 'name the same file'],
      [['caf\u00e9.md', 'cafe\u0301.md'], 'name the same file'],
      [['Straße.md', 'STRASSE.md'], 'name the same file'],
      [['lib', 'lib/index.js'], '"lib" is also a directory'],
      [['Lib', 'lib/index.js'], '"Lib" is also a directory'],
    ];
    for (const [paths, fragment] of collisions) {
      const before = await snapshot();
      const res = await install(acme, 'hostile', [skillMd('hostile'), ...paths.map((p) => ({ path: p, content: p }))]);
      expectError(res, 422, 'invalid_skill');
      expect(errorBody(res).error.message, paths.join(' ')).toContain(fragment);
      expect(await snapshot()).toBe(before);
    }
    expect(fs.readdirSync(storeRoot).filter((n) => n.startsWith('.tmp-'))).toEqual([]);
  });

  it('leaves path checks the contract states to the validator: a path over 512 characters is a 400', async () => {
    const res = await install(acme, 'hostile', [skillMd('hostile'), { path: 'p'.repeat(513), content: 'x' }]);
    expectError(res, 400, 'validation_failed');
  });

  it('enforces the organization’s fileSize, attachmentCount and archiveExpansion limits', async () => {
    const limited = await seedOrg(hub, unique('limited'));
    await okBody(
      limited.call('owner', 'updateCapacityPolicy', {
        body: { limits: { fileSize: 100, attachmentCount: 3, archiveExpansion: 250 } },
      }),
    );
    const manifest = { path: 'SKILL.md', content: '---\n---\n' };
    const cases: Array<[TextFile[], RegExp]> = [
      [
        [manifest, { path: 'big.txt', content: 'é'.repeat(51) }],
        /"big\.txt" has 102 bytes; this organization's fileSize limit is 100/,
      ],
      [
        [manifest, ...['a', 'b', 'c'].map((p) => ({ path: p, content: p }))],
        /4 files; this organization's attachmentCount limit is 3/,
      ],
      [
        [
          { path: 'SKILL.md', content: `---\n---\n${'m'.repeat(92)}` },
          { path: 'a', content: 'a'.repeat(100) },
          { path: 'b', content: 'b'.repeat(60) },
        ],
        /more than this organization's archiveExpansion limit of 250 bytes \(at "b"\)/,
      ],
    ];
    for (const [files, message] of cases) {
      const before = await snapshot();
      const res = await install(limited, 'limited', files);
      expectError(res, 422, 'invalid_skill');
      expect(errorBody(res).error.message).toMatch(message);
      expect(await snapshot()).toBe(before);
    }
    // At the limits exactly: 3 files, 100 bytes the largest, 250 in all.
    const padded = { path: 'SKILL.md', content: `---\n---\n${'m'.repeat(42)}` };
    await okBody(
      install(limited, 'limited', [
        padded,
        { path: 'a', content: 'a'.repeat(100) },
        { path: 'b', content: 'b'.repeat(100) },
      ]),
    );
    // Another organization keeps the platform's limits.
    await okBody(
      install(acme, 'unlimited-here', [skillMd('unlimited-here'), { path: 'big.txt', content: 'é'.repeat(51) }]),
    );
  });

  it('gives sixteen concurrent installs of the same content one entry and sixteen identical results', async () => {
    const files = sampleFiles('concurrent', `run ${randomUUID()}`);
    const digest = expectedDigest(files);
    expect(fs.existsSync(path.join(storeRoot, digest))).toBe(false);
    const before = new Set(fs.readdirSync(storeRoot));
    const results = await Promise.all(Array.from({ length: 16 }, () => install(acme, 'concurrent', files)));
    for (const res of results) expect(res.status, res.text).toBe(200);
    const bodies = results.map((r) => JSON.stringify(r.body));
    expect(new Set(bodies).size).toBe(1);
    expect((await okBody(results[0]!, 200)).contentDigest).toBe(digest);
    expect(fs.readdirSync(storeRoot).filter((n) => !before.has(n))).toEqual([digest]);
    expect(storeProblems(storeRoot)).toEqual([]);
    expect((await listed(acme)).filter((s) => s.name === 'concurrent')).toHaveLength(1);
  });

  it('gives sixteen concurrent installs of one content under different names one entry', async () => {
    const content = `shared ${randomUUID()}`;
    const before = new Set(fs.readdirSync(storeRoot));
    const names = Array.from({ length: 16 }, (_, i) => `fan-${i}`);
    const results = await Promise.all(
      names.map((name) => okBody(install(acme, name, [{ path: 'SKILL.md', content: `---\n---\n${content}\n` }]))),
    );
    expect(new Set(results.map((r) => r.contentDigest)).size).toBe(1);
    expect(fs.readdirSync(storeRoot).filter((n) => !before.has(n))).toEqual([results[0]!.contentDigest]);
  });
});

describe('GET /agent-skills', () => {
  it('lists every skill by name with the roleIds of the roles bound to it, in one query', async () => {
    const org = await seedOrg(hub, unique('listing'));
    const ids: Record<string, string> = {};
    for (const name of ['zeta', 'alpha', 'mid']) ids[name] = (await okBody(install(org, name, [skillMd(name)]))).id;
    await seedRole(org, 'reviewer', [ids.alpha!, ids.zeta!]);
    await seedRole(org, 'Coder.v2', [ids.alpha!]);
    await seedRole(org, 'idle', []);
    await okBody(org.call('admin', 'updateAgentSkill', { path: { name: 'mid' }, body: { disabled: true } }));

    const statements: string[] = [];
    const onQuery = (q: { sql: string }) => statements.push(q.sql);
    hub.services.db.on('query', onQuery);
    const skills = await listed(org);
    hub.services.db.off('query', onQuery);

    expect(skills.map((s) => [s.name, s.boundRoleIds])).toEqual([
      ['alpha', ['Coder.v2', 'reviewer']],
      ['mid', []],
      ['zeta', ['reviewer']],
    ]);
    expect(skills.find((s) => s.name === 'mid')!.disabledAt).not.toBeNull();
    expect(statements.filter((sql) => sql.includes('agent_skills'))).toHaveLength(1);
    expect(statements.filter((sql) => sql.includes('agent_role'))).toHaveLength(1);
  });
});

describe('GET /agent-skills/{name}/files', () => {
  it('reads the stored version back as UTF-8, sorted by path bytewise, byte for byte', async () => {
    const files: TextFile[] = [
      skillMd('readback'),
      { path: 'Zebra.md', content: 'upper case sorts first' },
      { path: 'a/b.md', content: '\uFEFFwith a byte order mark\r\n' },
      { path: 'a-b.md', content: '' },
      { path: 'é.md', content: 'Unicode: ∑ 🚀 \u0007 BEL kept' },
      { path: '😀.md', content: 'astral' },
      { path: '\uFFFD.md', content: 'replacement char sorts before astral bytes' },
    ];
    await okBody(install(acme, 'readback', files, '0.1.0'));
    const res = await okBody(acme.call('admin', 'getAgentSkillFiles', { path: { name: 'readback' } }));
    const sorted = [...files].sort((x, y) => Buffer.compare(Buffer.from(x.path), Buffer.from(y.path)));
    expect(res).toEqual({ files: sorted });
    // Installing what was read back gives the same content address.
    const again = await okBody(install(acme, 'readback', res.files, '0.2.0'));
    expect(again.contentDigest).toBe(expectedDigest(files));
  });

  it('answers 404 skill_not_found for an unknown name', async () => {
    expectError(
      await acme.call('admin', 'getAgentSkillFiles', { path: { name: 'no-such-skill' } }),
      404,
      'skill_not_found',
    );
  });
});

describe('PATCH /agent-skills/{name}', () => {
  let projectId: string;
  beforeAll(async () => {
    projectId = (await okBody(acme.call('owner', 'createProject', { body: { name: 'Agents at work' } }))).id;
  });

  it('relabels with description only: {updated: true}, and archives nothing', async () => {
    const { id } = await okBody(install(acme, 'labelled', [skillMd('labelled', 'Old label')]));
    await seedRole(acme, 'labeller', [id]);
    const session = await seedSession(acme, projectId, 'labeller');
    hub.clock.advance(1_000);
    expect(
      await okBody(
        acme.call('admin', 'updateAgentSkill', { path: { name: 'labelled' }, body: { description: 'New label' } }),
      ),
    ).toEqual({ updated: true });
    expect(await rowOf(acme, 'labelled')).toMatchObject({
      description: 'New label',
      disabledAt: null,
      updatedAt: hub.clock.now().toISOString(),
    });
    expect(await archivedAtOf(session)).toBeNull();
  });

  it('disables: sets disabledAt and archives the open sessions of every bound role, and only those', async () => {
    const { id } = await okBody(install(acme, 'risky', [skillMd('risky')]));
    const other = await okBody(install(acme, 'harmless', [skillMd('harmless')]));
    await seedRole(acme, 'risk-a', [id]);
    await seedRole(acme, 'risk-b', [id, other.id]);
    await seedRole(acme, 'safe', [other.id]);
    const globexProject = (await okBody(globex.call('owner', 'createProject', { body: { name: 'Elsewhere' } }))).id;
    const open = [await seedSession(acme, projectId, 'risk-a'), await seedSession(acme, projectId, 'risk-b')];
    const alreadyArchived = await seedSession(acme, projectId, 'risk-a', '2026-01-02T00:00:00.000Z');
    const untouched = [
      await seedSession(acme, projectId, 'safe'),
      await seedSession(acme, projectId, 'unbound'),
      await seedSession(globex, globexProject, 'risk-a'),
    ];

    hub.clock.advance(1_000);
    const at = hub.clock.now().toISOString();
    expect(
      await okBody(acme.call('admin', 'updateAgentSkill', { path: { name: 'risky' }, body: { disabled: true } })),
    ).toEqual({ disabled: true });
    expect((await rowOf(acme, 'risky')).disabledAt).toBe(at);
    for (const s of open) expect(await archivedAtOf(s)).toBe(at);
    expect(await archivedAtOf(alreadyArchived)).toBe('2026-01-02T00:00:00.000Z');
    for (const s of untouched) expect(await archivedAtOf(s)).toBeNull();

    // Disabling again keeps the first time; re-enabling clears it and revives no session.
    hub.clock.advance(1_000);
    expect(
      await okBody(acme.call('owner', 'updateAgentSkill', { path: { name: 'risky' }, body: { disabled: true } })),
    ).toEqual({ disabled: true });
    expect((await rowOf(acme, 'risky')).disabledAt).toBe(at);
    expect(
      await okBody(acme.call('owner', 'updateAgentSkill', { path: { name: 'risky' }, body: { disabled: false } })),
    ).toEqual({ disabled: false });
    expect((await rowOf(acme, 'risky')).disabledAt).toBeNull();
    for (const s of open) expect(await archivedAtOf(s)).toBe(at);
  });

  it('answers both keys when both are given, and an empty object for an empty request', async () => {
    await okBody(install(acme, 'both', [skillMd('both')]));
    expect(
      await okBody(
        acme.call('admin', 'updateAgentSkill', { path: { name: 'both' }, body: { description: 'x', disabled: true } }),
      ),
    ).toEqual({ disabled: true, updated: true });
    expect(await rowOf(acme, 'both')).toMatchObject({ description: 'x', disabledAt: expect.any(String) });
    const before = await rowOf(acme, 'both');
    expect(await okBody(acme.call('admin', 'updateAgentSkill', { path: { name: 'both' }, body: {} }))).toEqual({});
    expect(await rowOf(acme, 'both')).toEqual(before);
  });

  it('disables and archives in one transaction: when archiving fails, the skill stays enabled', async () => {
    const { id } = await okBody(install(acme, 'atomic', [skillMd('atomic')]));
    await seedRole(acme, 'atomic-role', [id]);
    const session = await seedSession(acme, projectId, 'atomic-role');
    class FailingStore extends SkillStore {
      override async archiveSessionsOfBoundRoles(
        trx: Db,
        organizationId: string,
        skillId: string,
        at: string,
      ): Promise<number> {
        await super.archiveSessionsOfBoundRoles(trx, organizationId, skillId, at);
        throw new Error('archive failed');
      }
    }
    const { db, capacity, clock, library } = hub.services;
    const uow = new UnitOfWork(db);
    const store = new FailingStore();
    const content = new SkillContentStore(storeRoot);
    const ingestion = new SkillIngestion(uow, content, store, capacity, clock);
    const requireLibraryFolder = (organizationId: string, folderId: string, trx: Db) =>
      library.requireActive(organizationId, folderId, trx);
    const failing = new SkillService(uow, store, ingestion, content, clock, requireLibraryFolder);
    await expect(failing.update(acme.id, 'atomic', { disabled: true })).rejects.toThrow('archive failed');
    expect((await rowOf(acme, 'atomic')).disabledAt).toBeNull();
    expect(await archivedAtOf(session)).toBeNull();
  });

  it('answers 404 skill_not_found for an unknown name', async () => {
    expectError(
      await acme.call('admin', 'updateAgentSkill', { path: { name: 'no-such-skill' }, body: { disabled: true } }),
      404,
      'skill_not_found',
    );
  });
});

describe('hub skill install', () => {
  function writeDir(dirName: string, files: Array<{ path: string; content: string | Buffer }>): string {
    const dir = path.join(tmp, unique('src'), dirName);
    for (const file of files) {
      fs.mkdirSync(path.dirname(path.join(dir, file.path)), { recursive: true });
      fs.writeFileSync(path.join(dir, file.path), file.content);
    }
    return dir;
  }

  function expectRefused(result: { code: number | null; stdout: string; stderr: string }, pattern: RegExp) {
    expect(result.code, result.stderr).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(pattern);
  }

  it('is listed in the usage text', async () => {
    const help = await runHub(['help'], env);
    expect(help.stdout).toContain('skill install <dir> --org <slug> [--name N] [--version V]');
  });

  it('installs a directory with the same content address as the same files over HTTP', async () => {
    const files = sampleFiles('from-disk', 'Installed by the host console');
    const dir = writeDir('from-disk', files);
    const result = await runHub(['skill', 'install', dir, '--org', 'acme', '--version', '4.5.6'], env);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const digest = expectedDigest(files);
    expect(result.stdout).toBe(`installed skill from-disk "4.5.6" into acme: ${digest}\n`);
    expect(await rowOf(acme, 'from-disk')).toMatchObject({
      version: '4.5.6',
      description: 'Installed by the host console',
      contentDigest: digest,
    });
    const overHttp = await okBody(install(globex, 'from-disk', files));
    expect(overHttp.contentDigest).toBe(digest);
    expect((await okBody(acme.call('admin', 'getAgentSkillFiles', { path: { name: 'from-disk' } }))).files).toEqual(
      (await okBody(globex.call('admin', 'getAgentSkillFiles', { path: { name: 'from-disk' } }))).files,
    );
  });

  it(
    'takes the name from --name and the version from the front ' +
      'matter, else 0.0.0; says when the content was stored already',
    async () => {
      const withVersion = writeDir('Not A Valid Name', [
        { path: 'SKILL.md', content: '---\nname: versioned\nversion: 1.10\n---\nbody\n' },
      ]);
      const first = await runHub(['skill', 'install', withVersion, '--org', 'acme', '--name', 'versioned'], env);
      expect(first.code, first.stderr).toBe(0);
      expect((await rowOf(acme, 'versioned')).version).toBe('1.10');
      const again = await runHub(['skill', 'install', withVersion, '--org', 'globex', '--name', 'versioned'], env);
      expect(again.stdout).toMatch(/\(content already in the store\)\n$/);
      const unchanged = await runHub(['skill', 'install', withVersion, '--org', 'globex', '--name', 'versioned'], env);
      expect(unchanged.code, unchanged.stderr).toBe(0);
      expect(unchanged.stdout).toMatch(/\(unchanged: the skill already held it\)\n$/);
      const bare = writeDir('bare-skill', [{ path: 'SKILL.md', content: '---\n---\nbody\n' }]);
      expect((await runHub(['skill', 'install', bare, '--org', 'acme'], env)).code).toBe(0);
      expect((await rowOf(acme, 'bare-skill')).version).toBe('0.0.0');
    },
  );

  it('refuses bad input with one line and exit 2, writing nothing', async () => {
    const good = writeDir('good-skill', [skillMd('good-skill')]);
    const binary = writeDir('binary-skill', [
      skillMd('binary-skill'),
      { path: 'logo.png', content: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0xff, 0xfe]) },
    ]);
    const linked = writeDir('linked-skill', [skillMd('linked-skill')]);
    fs.symlinkSync('/etc/passwd', path.join(linked, 'passwd'));
    const backslash = writeDir('slash-skill', [skillMd('slash-skill'), { path: 'a\\b.md', content: 'x' }]);
    const mismatch = writeDir('mismatch', [skillMd('other-name')]);
    const noManifest = writeDir('no-manifest', [{ path: 'README.md', content: 'x' }]);
    const cases: Array<[string[], RegExp]> = [
      [['skill', 'install', good], /--org is required/],
      [['skill', 'install', good, '--org', 'nope'], /no organization "nope"/],
      [['skill', 'install', path.join(tmp, 'missing'), '--org', 'acme'], /no directory/],
      [['skill', 'install', good, '--org', 'acme', '--name', 'Bad Name'], /skill name "Bad Name" must match/],
      [
        ['skill', 'install', writeDir('Bad_Name', [skillMd('bad')]), '--org', 'acme'],
        /"Bad_Name" \(the directory name; give --name\)/,
      ],
      [['skill', 'install', good, '--org', 'acme', '--version', ''], /version must have 1 to 200 characters/],
      [['skill', 'remove', good], /expected "skill install"/],
      [['skill', 'install', binary, '--org', 'acme'], /"logo\.png" is not UTF-8 text/],
      [['skill', 'install', linked, '--org', 'acme'], /"passwd" is a symbolic link/],
      [['skill', 'install', backslash, '--org', 'acme'], /"a\\\\b\.md" contains a backslash/],
      [['skill', 'install', mismatch, '--org', 'acme'], /"other-name", not the skill name "mismatch"/],
      [['skill', 'install', noManifest, '--org', 'acme'], /no SKILL\.md/],
    ];
    for (const [args, pattern] of cases) {
      const before = await snapshot();
      expectRefused(await runHub(args, env), pattern);
      expect(await snapshot(), args.join(' ')).toBe(before);
    }
  });

  it('applies the organization’s limits to the directory before reading it', async () => {
    const limited = await seedOrg(hub, unique('cli-limited'));
    await okBody(limited.call('owner', 'updateCapacityPolicy', { body: { limits: { attachmentCount: 2 } } }));
    const dir = writeDir('three-files', [
      skillMd('three-files'),
      { path: 'a', content: 'a' },
      { path: 'b', content: 'b' },
    ]);
    const before = await snapshot();
    expectRefused(
      await runHub(['skill', 'install', dir, '--org', limited.slug], env),
      /more than 2 files, this organization's attachmentCount limit/,
    );
    expect(await snapshot()).toBe(before);
  });
});
