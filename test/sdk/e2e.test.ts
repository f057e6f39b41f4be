// The SDK as integrators get it: `npm pack` in sdk/ (which builds it from openapi.yaml), the
// tarball installed into a fresh consumer project from the npm registry, and plain node
// scripts driving the real service (TestHub) through it. Nothing is skipped: without the
// registry the install fails and so does this file.
import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deriveOperations, deriveSchemas } from '../../sdk/scripts/spec.mjs';
import type { SuccessBody } from '../support/api-client.js';
import { TestHub } from '../support/test-hub.js';
import { specDocument } from './support/client.js';
import { cleanEnv } from '../support/subprocess.js';

const run = promisify(execFile);
const sdkDir = fileURLToPath(new URL('../../sdk/', import.meta.url));
const consumerFixtures = fileURLToPath(new URL('./consumer/', import.meta.url));
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const PACKAGE = '@agent-hub/org-admin-sdk';

/** Runs a command (asynchronously: the in-process server keeps answering) and returns stdout. */
async function sh(file: string, args: string[], cwd: string, env: Record<string, string> = {}): Promise<string> {
  try {
    const { stdout } = await run(file, args, { cwd, env: cleanEnv(env), maxBuffer: 32 * 1024 * 1024 });
    return stdout;
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string };
    throw new Error(`${file} ${args.join(' ')} failed in ${cwd}\n${stdout ?? ''}\n${stderr ?? ''}`);
  }
}

/**
 * The README's TypeScript examples, each as a module to compile against the installed package:
 * its imports, the names examples share (declared), and its code in an async function (where
 * it may shadow a shared name).
 */
function readmeExamples(): string[] {
  const readme = readFileSync(join(sdkDir, 'README.md'), 'utf8');
  const shared = [
    `declare const hub: import('${PACKAGE}').OrgAdminClient;`,
    'declare const process: { env: Record<string, string | undefined> };',
    'declare const projectId: string, selectedFolderId: string | undefined;',
    'declare const authToken: string, appId: string, appSecret: string, botOpenId: string;',
  ];
  return [...readme.matchAll(/```ts\n([\s\S]*?)```/g)].map(([, code]) => {
    const lines = (code ?? '').split('\n');
    const imports = lines.filter((line) => line.startsWith('import '));
    const body = lines.filter((line) => !line.startsWith('import '));
    return [...imports, ...shared, 'export async function example(): Promise<void> {', ...body, '}', ''].join('\n');
  });
}

/** The JSON object a consumer script printed last. */
const json = <T>(stdout: string): T => JSON.parse(stdout.trim().split('\n').at(-1) ?? '') as T;

/** What drive.mjs prints: the result of each call it made, as the contract types it. */
interface DriveOutput {
  me: SuccessBody<'getMe'>;
  organization: SuccessBody<'getOrganization'>;
  settingsBefore: SuccessBody<'getOrgSettings'>;
  settingsReturned: SuccessBody<'updateOrgSettings'>;
  settingsAfter: SuccessBody<'getOrgSettings'>;
  team: SuccessBody<'createTeam'>;
  teams: SuccessBody<'listTeams'>;
  created: SuccessBody<'createProject'>;
  project: SuccessBody<'getProject'>;
  sessions: SuccessBody<'listProjectSessions'>;
  usage: SuccessBody<'getUsageReport'>;
  breakdown: SuccessBody<'getUsageBreakdown'>;
  capability: SuccessBody<'putCapabilityConnection'>;
  capabilities: SuccessBody<'listCapabilityConnections'>;
  capabilityDisabled: SuccessBody<'disableCapabilityConnection'>;
  libraryFolder: SuccessBody<'createAgentLibraryFolder'>;
  library: SuccessBody<'getAgentLibrary'>;
  roleDisabled: SuccessBody<'updateAgentRole'>;
  libraryFolderNotEmpty: unknown;
  drawer: SuccessBody<'createAgentLibraryFolder'>;
  drawerRenamed: SuccessBody<'updateAgentLibraryFolder'>;
  libraryRenamed: SuccessBody<'getAgentLibrary'>;
  drawerArchived: SuccessBody<'archiveAgentLibraryFolder'>;
  libraryAfterArchive: SuccessBody<'getAgentLibrary'>;
  providerDisabled: SuccessBody<'disableProviderConnection'>;
  /** The ApiError fields of the calls that failed on purpose. */
  projectNotFound: unknown;
  teamSlugTaken: unknown;
  tokenMember: SuccessBody<'addMember'>;
  createdToken: SuccessBody<'createApiToken'>;
  tokenShape: boolean;
  membersThroughToken: string[];
  tokenOutOfScope: unknown;
  tokenSessionOnly: unknown;
  tokenOtherOrg: unknown;
  tokenRevoked: unknown;
  loginTokenReused: unknown;
  afterLogout: unknown;
  loginResultType: string;
  logoutResultType: string;
  rawLoginStatus: number;
  meThroughRawLoginCookie: string;
}

describe('the packed SDK against the real service', () => {
  let work: string;
  let consumer: string;
  let tarball: string;
  let hub: TestHub;
  let cookie: string;

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'org-admin-sdk-e2e-'));
    consumer = join(work, 'consumer');
    cpSync(consumerFixtures, consumer, { recursive: true });
    writeFileSync(
      join(consumer, 'package.json'),
      JSON.stringify({ name: 'sdk-consumer', private: true, type: 'module' }),
    );
    // `npm pack` runs the package's prepack: generate from openapi.yaml, compile ESM and CJS.
    const [packed, started] = await Promise.all([
      sh('npm', ['pack', '--pack-destination', work], sdkDir),
      TestHub.start(),
    ]);
    hub = started;
    tarball = join(work, packed.trim().split('\n').at(-1) ?? '');
    await sh('npm', ['install', tarball, '--no-audit', '--no-fund', '--ignore-scripts', '--prefer-offline'], consumer);
    await hub.createOrg('sdk-e2e', 'sdk-e2e-owner');
    cookie = await hub.login('sdk-e2e-owner');
  }, 120_000);

  afterAll(async () => {
    await hub?.stop();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('packs the build, its README, LICENSE and package.json, and depends on openapi-fetch alone', async () => {
    const files = (await sh('tar', ['-tzf', tarball], work))
      .trim()
      .split('\n')
      .map((f) => f.replace(/^package\//, ''));
    expect(files.filter((f) => !f.startsWith('dist/')).sort()).toEqual(['LICENSE', 'README.md', 'package.json']);
    expect(files).toEqual(
      expect.arrayContaining([
        'dist/index.js',
        'dist/index.d.ts',
        'dist/cjs/index.js',
        'dist/cjs/index.d.ts',
        'dist/cjs/package.json',
      ]),
    );
    const manifest = JSON.parse(readFileSync(join(consumer, 'node_modules', PACKAGE, 'package.json'), 'utf8'));
    expect(manifest.dependencies).toEqual({ 'openapi-fetch': '0.17.0' });
    expect(manifest.peerDependencies).toBeUndefined();
    const installed = readdirSync(join(consumer, 'node_modules')).filter((name) => !name.startsWith('.'));
    expect(installed.sort()).toEqual(['@agent-hub', 'openapi-fetch', 'openapi-typescript-helpers']);
  });

  it('exports createOrgAdminClient and ApiError, with one method per operation, from ESM and CommonJS', async () => {
    const surface = json<unknown>(await sh(process.execPath, ['surface.mjs'], consumer));
    const methods = [...deriveOperations(specDocument).map((op) => op.operationId), 'paginate', 'raw'].sort();
    expect(surface).toEqual({
      esmExports: ['ApiError', 'createOrgAdminClient'],
      cjsExports: ['ApiError', 'createOrgAdminClient'],
      esmMethods: methods,
      cjsMethods: methods,
      crossCopyInstanceof: true,
    });
  });

  it('drives the service from a plain ESM script run with node', async () => {
    const seen = json<DriveOutput>(
      await sh(process.execPath, ['drive.mjs'], consumer, {
        HUB_URL: hub.url,
        HUB_ORG: 'sdk-e2e',
        HUB_COOKIE: cookie,
        HUB_TOKEN_METHOD: await hub.loginToken('sdk-e2e-owner'),
        HUB_TOKEN_RAW: await hub.loginToken('sdk-e2e-owner'),
      }),
    );
    expect(seen.me.user.imOpenId).toBe('sdk-e2e-owner');
    expect(seen.me.organizations).toEqual([expect.objectContaining({ slug: 'sdk-e2e', role: 'OWNER' })]);
    expect(seen.organization).toEqual({
      organization: expect.objectContaining({ slug: 'sdk-e2e', name: 'Org sdk-e2e' }),
      actorRole: 'OWNER',
    });
    const flipped = {
      ...seen.settingsBefore,
      membersCanCreateProjects: !seen.settingsBefore.membersCanCreateProjects,
    };
    expect([seen.settingsReturned, seen.settingsAfter]).toEqual([flipped, flipped]);
    expect(seen.team).toMatchObject({ slug: 'platform', name: 'Platform', description: 'Runs the hub' });
    expect(seen.teams.teams.map((t: { slug: string }) => t.slug)).toEqual(['platform']);
    expect(seen.created).toEqual({ id: expect.any(String), name: 'Apollo' });
    expect(seen.project).toMatchObject({ id: seen.created.id, name: 'Apollo', archivedAt: null });
    expect(seen.sessions).toEqual({ sessions: [], nextCursor: null });
    // `from` and `to` were left out of the URL, so the report covers all time.
    expect(seen.usage).toMatchObject({ from: null, to: null, projects: [] });
    expect(seen.breakdown).toEqual({ from: null, to: null, byFactKind: [], byCapability: [] });
    expect(seen.capability).toMatchObject({ capabilityId: 'web-search', status: 'ACTIVE', activeVersion: 1 });
    expect(JSON.stringify(seen.capabilities)).not.toContain('Bearer sdk');
    expect(seen.capabilityDisabled.status).toBe('DISABLED');
    expect(seen.library.folders).toEqual([
      {
        id: seen.libraryFolder.id,
        name: 'Shelf',
        parentId: null,
        sortKey: seen.libraryFolder.sortKey,
        roleCount: 0,
        skillCount: 0,
      },
    ]);
    expect(seen.roleDisabled).toMatchObject({
      roleId: 'coder',
      libraryFolderId: seen.libraryFolder.id,
      disabledAt: expect.any(String),
    });
    // The disabled role still counts, so Shelf is not empty; the empty Drawer is renamed, then archived.
    expect(seen.libraryFolderNotEmpty).toMatchObject({ isApiError: true, status: 409, code: 'folder_not_empty' });
    expect(seen.drawerRenamed).toEqual({
      id: seen.drawer.id,
      name: 'Cabinet',
      parentId: null,
      sortKey: seen.drawer.sortKey,
    });
    expect(seen.libraryRenamed.folders).toHaveLength(2);
    expect(seen.libraryRenamed.folders).toContainEqual({ ...seen.drawerRenamed, roleCount: 0, skillCount: 0 });
    expect(seen.drawerArchived).toEqual({ archived: true, folderId: seen.drawer.id });
    expect(seen.libraryAfterArchive.folders).toEqual([{ ...seen.library.folders[0], roleCount: 1, skillCount: 0 }]);
    expect(seen.providerDisabled).toMatchObject({ providerId: 'anthropic', mode: 'BYOK', status: 'DISABLED' });
    expect(seen.projectNotFound).toEqual({
      isApiError: true,
      name: 'ApiError',
      status: 404,
      code: 'project_not_found',
      message: expect.any(String),
    });
    expect(seen.teamSlugTaken).toMatchObject({ isApiError: true, status: 409, code: 'slug_taken' });
    expect(seen.loginResultType).toBe('undefined');
    expect(seen.loginTokenReused).toMatchObject({ isApiError: true, status: 401, code: 'unauthenticated' });
    expect([seen.rawLoginStatus, seen.meThroughRawLoginCookie]).toEqual([303, 'sdk-e2e-owner']);
    // A token created with the session, then used alone: pages, scope, session-only, other org, revoked.
    expect(seen.createdToken).toMatchObject({ name: 'sdk e2e', scopes: ['members:read'], revokedAt: null });
    expect(seen.tokenShape).toBe(true);
    expect(seen.membersThroughToken.sort()).toEqual(['sdk-e2e-member', 'sdk-e2e-owner']);
    expect(seen.tokenOutOfScope).toEqual({
      isApiError: true,
      name: 'ApiError',
      status: 403,
      code: 'token_scope_required',
      message: expect.any(String),
    });
    expect(seen.tokenSessionOnly).toMatchObject({ isApiError: true, status: 401, code: 'unauthenticated' });
    expect(seen.tokenOtherOrg).toMatchObject({ isApiError: true, status: 404, code: 'org_not_found' });
    expect(seen.tokenRevoked).toMatchObject({ isApiError: true, status: 401, code: 'token_invalid' });
    expect(seen.logoutResultType).toBe('undefined');
    expect(seen.afterLogout).toMatchObject({ isApiError: true, status: 401, code: 'unauthenticated' });
  });

  it('gives TypeScript consumers (ESM and CommonJS) every schema type ' +
    'by name and the typed methods; the README examples compile', async () => {
    const schemas = deriveSchemas(specDocument).map((s) => s.exportName);
    writeFileSync(
      join(consumer, 'check.ts'),
      [
        `import { ApiError, createOrgAdminClient, type ApiErrorCode, type OrgAdminClient } from '${PACKAGE}';`,
        `import type { ${schemas.join(', ')} } from '${PACKAGE}';`,
        `export type AllSchemas = [${schemas.join(', ')}];`,
        "const c: OrgAdminClient = createOrgAdminClient({ baseUrl: 'http://localhost:8080', orgSlug: 'acme', " +
          "headers: { cookie: 'hub_session=x' } });",
        'export async function check(): Promise<void> {',
        `  const project: ProjectDetail = await c.getProject({ projectId: 'p1' });`,
        `  const member: OrgMember = await c.addMember({ body: { imOpenId: 'ou_1', role: 'ADMIN' } });`,
        `  const sessions: SessionList = await c.listProjectSessions({ projectId: 'p1', query: { limit: 10 } });`,
        '  const loggedOut: undefined = await c.logout();',
        '  // Optional query values take undefined even under exactOptionalPropertyTypes: empty ones are left out.',
        `  const report: UsageReport = await c.getUsageReport({ query: { from: undefined, folderId: '' } });`,
        '  // @ts-expect-error orgSlug is bound by the client',
        `  await c.getProject({ projectId: 'p1', orgSlug: 'other' });`,
        '  // @ts-expect-error GOD is not an OrgRole',
        `  await c.addMember({ body: { imOpenId: 'ou_1', role: 'GOD' } });`,
        '  // @ts-expect-error createTeam needs a body',
        '  await c.createTeam({});',
        '  try { void [project, member, sessions, loggedOut, report]; } catch (e) {',
        '    if (e instanceof ApiError) { const status: number = e.status; ' +
          'const details = (e.body as ErrorEnvelope).error.details; void [status, details]; }',
        '  }',
        '  // The error envelope is ErrorEnvelope; Error stays the global class.',
        "  const thrown: Error = new Error('x'); void thrown;",
        '  // @ts-expect-error the package exports no type named Error',
        `  type NoErrorExport = import('${PACKAGE}').Error; void (null as unknown as NoErrorExport);`,
        '  // ApiError.code is the contract ErrorCode or http_error: it narrows, and typos do not compile.',
        "  const codes: ApiErrorCode[] = ['last_owner', 'http_error', 'token_scope_required'];",
        "  const known: ErrorCode = 'token_invalid'; void [codes, known];",
        "  try { await c.revokeMember({ userId: 'u1' }); } catch (e) {",
        "    if (e instanceof ApiError && e.code === 'last_owner') { const code: 'last_owner' = e.code; void code; }",
        '    // @ts-expect-error last_ownr is no code of the contract',
        "    if (e instanceof ApiError && e.code === 'last_ownr') throw e;",
        '  }',
        '  // @ts-expect-error ApiError is constructed with the contract codes only',
        "  void new ApiError({ status: 400, code: 'bad_thing', message: 'x', body: undefined });",
        '  // A token client; paginate yields the list items and refuses methods without pages.',
        "  const t = createOrgAdminClient({ baseUrl: 'http://localhost:8080', orgSlug: 'acme', token: 'hubt_x', " +
          'retry: { maxRetries: 1, maxWaitMs: 1000 } });',
        '  for await (const m of t.paginate(t.listMembers, { query: { limit: 10 } })) { const row: OrgMember = m; ' +
          'void row; }',
        '  for await (const e of t.paginate(t.listAuditEvents)) { const row: AuditEvent = e; void row; }',
        '  // @ts-expect-error getMe answers no page',
        '  t.paginate(t.getMe);',
        '  // @ts-expect-error the token is a string',
        "  createOrgAdminClient({ baseUrl: 'http://localhost:8080', orgSlug: 'acme', token: 1 });",
        '}',
      ].join('\n'),
    );
    writeFileSync(
      join(consumer, 'check-cjs.cts'),
      [
        `import sdk = require('${PACKAGE}');`,
        "const c: sdk.OrgAdminClient = sdk.createOrgAdminClient({ baseUrl: 'http://localhost:8080', " +
          "orgSlug: 'acme' });",
        'export async function team(): Promise<sdk.TeamRow> { ' +
          "return c.createTeam({ body: { slug: 'a', name: 'A' } }); }",
      ].join('\n'),
    );
    const readmeFiles = readmeExamples().map((text, i) => {
      const file = `readme-${i + 1}.ts`;
      writeFileSync(join(consumer, file), text);
      return file;
    });
    expect(readmeFiles.length).toBeGreaterThanOrEqual(13);
    writeFileSync(
      join(consumer, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          lib: ['ES2022', 'DOM'],
          types: [],
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          strict: true,
          exactOptionalPropertyTypes: true,
          noUncheckedIndexedAccess: true,
          // The published declarations are checked too, not only their use.
          skipLibCheck: false,
          noEmit: true,
        },
        files: ['check.ts', 'check-cjs.cts', ...readmeFiles],
      }),
    );
    await sh(process.execPath, [tsc, '-p', '.'], consumer);
  }, 60_000);
});
