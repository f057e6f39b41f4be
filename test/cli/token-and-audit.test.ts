import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, expectOk, okBody } from '../support/assertions.js';
import { cliEnv, runHub } from '../support/hub-cli.js';
import { type OrgFixture, seedOrg } from '../support/org-fixture.js';
import { TestHub } from '../support/test-hub.js';
import { runLine, writeJsonl } from '../support/usage-runs.js';

let hub: TestHub;
let org: OrgFixture;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  hub = await TestHub.start();
  org = await seedOrg(hub, 'console');
  env = cliEnv(hub.database.dataDir, hub.database.databaseUrl);
});
afterAll(() => hub.stop());

const bearer = (token: string) => ({ headers: { authorization: `Bearer ${token}` } });

describe('hub token create', () => {
  it('prints a working token alone on stdout, for the member and scopes given', async () => {
    const result = await runHub(
      ['token', 'create', org.slug, 'console-admin', '--name', 'deploy bot', '--scopes', 'teams:write,audit:read'],
      env,
    );
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^hubt_[a-z2-7]{16}_[0-9A-Za-z]{43}\n$/);
    expect(result.stderr).toMatch(
      /^created API token hubt_\w{7}… \(.+\) for console-admin in console, until revoked\n$/,
    );
    const token = result.stdout.trim();

    const teams = await hub.orgCall(org.slug, undefined, 'listTeams', bearer(token));
    expectOk(teams);
    expectError(await hub.orgCall(org.slug, undefined, 'listMembers', bearer(token)), 403, 'token_scope_required');
    const tokens = await org.call('admin', 'listApiTokens');
    expectOk(tokens);
    expect(tokens.body.tokens[0]).toMatchObject({
      name: 'deploy bot',
      scopes: ['teams:write', 'audit:read'],
      createdBy: { id: org.userIds.admin },
      prefix: token.slice(0, 12),
    });
  });

  it('sets the expiry from a duration', async () => {
    const result = await runHub(
      ['token', 'create', org.slug, 'console-member', '--name', 'short', '--scopes', 'org:read', '--expires', '2h'],
      env,
    );
    expect(result.code).toBe(0);
    const tokens = await org.call('member', 'listApiTokens');
    expectOk(tokens);
    const expiresAt = Date.parse(tokens.body.tokens[0]!.expiresAt!);
    expect(expiresAt - Date.now()).toBeGreaterThan(2 * 3_600_000 - 10 * 60_000);
    expect(expiresAt - Date.now()).toBeLessThanOrEqual(2 * 3_600_000);
  });

  it('refuses with one line and exit 2, creating nothing: unknown scope, non-member, bad expiry', async () => {
    const count = async () => Number((await hub.services.db('api_tokens').count({ n: '*' }).first())?.n);
    const before = await count();
    const cases: Array<[string[], RegExp]> = [
      [['console-admin', '--name', 'n', '--scopes', 'teams:delete'], /unknown scope teams:delete/],
      [['nobody', '--name', 'n', '--scopes', 'org:read'], /"nobody" is no active member of console/],
      [['console-admin', '--name', 'n', '--scopes', 'org:read', '--expires', 'soon'], /--expires "soon"/],
      [['console-admin', '--scopes', 'org:read'], /--name is required/],
    ];
    for (const [args, message] of cases) {
      const result = await runHub(['token', 'create', org.slug, ...args], env);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
      expect(result.stderr).toMatch(message);
    }
    expect(await count()).toBe(before);
  });
});

describe('hub audit', () => {
  it('prints the events newest first, as lines or JSON, console changes included', async () => {
    const team = await org.call('owner', 'createTeam', { body: { slug: 'audited', name: 'Audited' } });
    expectOk(team, 201);
    const lines = await runHub(['audit', org.slug, '--limit', '5'], env);
    expect(lines.code).toBe(0);
    // The lines the web app's audit log shows: the sentence, the target's name, the action.
    const latest = (await okBody(org.call('owner', 'listAuditEvents', { query: { limit: 5 } }))).events;
    expect(lines.stdout.trimEnd().split('\n')).toEqual(
      latest.map(
        (e) =>
          `${e.at}  ${e.summary}  (${e.target.label ?? e.target.type.replaceAll('_', ' ')})  ${e.action}` +
          (e.requestId ? `  request ${e.requestId}` : ''),
      ),
    );
    expect(lines.stdout.split('\n')[0]).toContain('  Owner of console created team Audited  (Audited)  createTeam');
    expect(lines.stdout).not.toContain(team.body.id);
    expect(lines.stdout).toMatch(/ {2}hub console created API token \S.* {2}hub\.token\.create\n/);

    const json = await runHub(['audit', org.slug, '--json', '--since', '1d'], env);
    expect(json.code).toBe(0);
    const events = json.stdout
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line));
    const api = await org.call('owner', 'listAuditEvents', { query: { limit: 1000 } });
    expectOk(api);
    expect(events).toEqual(api.body.events);
    expect(events.find((e) => e.action === 'hub.token.create')).toMatchObject({
      actor: { type: 'console', id: null, displayName: 'hub console' },
      requestId: null,
    });
  });

  it('refuses an unknown organization and a bad --since with one line', async () => {
    for (const args of [['nowhere'], [org.slug, '--since', 'yesterday']]) {
      const result = await runHub(['audit', ...args], env);
      expect(result.code).toBe(2);
      expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
    }
  });
});

describe('console commands in the audit log', () => {
  /** The events the console wrote in `slug` since the start, oldest first. */
  const consoleEvents = async (slug: string) => {
    const org = await hub.services.organizations.findBySlug(slug);
    const rows = await hub.services.db('audit_events').where({ organization_id: org!.id, actor_type: 'console' });
    return rows.sort((a, b) => Number(a.seq) - Number(b.seq)).map((row) => `${row.action} ${row.target_type}`);
  };

  it('records each command that changes an organization once, as the hub console, and no secret', async () => {
    const run = async (args: string[], extra: Record<string, string> = {}) => {
      const result = await runHub(args, { ...env, ...extra });
      expect(result.code, `${args.join(' ')}: ${result.stderr}`).toBe(0);
      return result;
    };
    await run(['org', 'create', 'logged', '--name', 'Logged', '--owner', 'logged-owner']);
    // No limit to clear: nothing changes, so nothing is recorded.
    await run(['capacity', 'clear', 'logged', 'teamCount']);
    await run(['connection', 'platform', 'logged', 'anthropic', '--base-url', 'https://api.anthropic.com'], {
      HUB_PROVIDER_AUTH_TOKEN: 'sk-console-canary',
    });
    const cookie = await hub.login('logged-owner');
    const project = await okBody(hub.orgCall('logged', cookie, 'createProject', { body: { name: 'Bound' } }), 201);
    await run(['project', 'bind', 'logged', project.id, 'oc_logged']);
    await run(['token', 'create', 'logged', 'logged-owner', '--name', 'n', '--scopes', 'org:read']);
    const skillDir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'hub-skill-')), 'logged-skill');
    fs.mkdirSync(skillDir);
    fs.writeFileSync(path.join(skillDir, 'SKILL.md'), '---\nname: logged-skill\n---\nLogged.\n');
    await run(['skill', 'install', skillDir, '--org', 'logged']);
    const runs = writeJsonl(path.dirname(skillDir), 'runs.jsonl', [
      runLine(project.id, 'logged-session', new Date().toISOString()),
    ]);
    await run(['usage', 'ingest', runs, '--org', 'logged']);

    expect(await consoleEvents('logged')).toEqual([
      'hub.org.create organization',
      'hub.connection.platform provider_connection',
      'hub.project.bind project_binding',
      'hub.token.create api_token',
      'hub.skill.install agent_skill',
      'hub.usage.ingest usage',
    ]);
    const audit = JSON.stringify(await hub.services.db('audit_events').select());
    expect(audit).not.toContain('sk-console-canary');
  });
});
