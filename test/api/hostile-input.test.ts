// Inputs a careless or hostile client sends: none may yield a 5xx or store something the
// other database could not hold. Each refusal is checked to have changed nothing.
import { connect } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, expectOk, okBody } from '../support/assertions.js';
import { seedOrg, type OrgFixture } from '../support/org-fixture.js';
import { TestHub } from '../support/test-hub.js';

let hub: TestHub;
let org: OrgFixture;

beforeAll(async () => {
  hub = await TestHub.start();
  org = await seedOrg(hub, 'hostile');
});
afterAll(() => hub?.stop());

/** A raw request with exactly these bytes and headers, as the owner. */
async function send(method: string, path: string, body: Buffer | string | undefined, headers: Record<string, string>) {
  const res = await fetch(`${hub.url}/api/org/${org.slug}${path}`, {
    method,
    headers: { cookie: org.cookies.owner, ...headers },
    body: typeof body === 'string' || body === undefined ? body : new Uint8Array(body),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, body: text ? (JSON.parse(text) as unknown) : undefined };
}

async function teamSlugs(): Promise<string[]> {
  const { teams } = await okBody(org.call('owner', 'listTeams'), 200);
  return teams.map((t) => t.slug).sort();
}

describe('request bodies', () => {
  it('refuses a Content-Encoding that does not decode with 400, signed in or not', async () => {
    const before = await teamSlugs();
    const junk = '{"slug":"gz","name":"G"}';
    for (const encoding of ['gzip', 'deflate', 'br']) {
      const res = await send('POST', '/teams', junk, {
        'content-type': 'application/json',
        'content-encoding': encoding,
      });
      expectError(res, 400, 'validation_failed');
    }
    expectError(
      await hub.request('POST', `/api/org/${org.slug}/teams`, { body: junk, headers: { 'content-encoding': 'gzip' } }),
      401,
      'unauthenticated',
    );
    expect(await teamSlugs()).toEqual(before);
  });

  it('still reads a body that is really gzip', async () => {
    const res = await send('POST', '/teams', gzipSync('{"slug":"zipped","name":"Zipped"}'), {
      'content-type': 'application/json',
      'content-encoding': 'gzip',
    });
    expect(res.status, res.text).toBe(201);
  });

  it('refuses bytes that are not UTF-8 instead of repairing them', async () => {
    const body = Buffer.concat([Buffer.from('{"slug":"utf","name":"'), Buffer.from([0xff, 0xfe]), Buffer.from('"}')]);
    expectError(await send('POST', '/teams', body, { 'content-type': 'application/json' }), 400, 'validation_failed');
    expect(await teamSlugs()).not.toContain('utf');
  });

  it('reads UTF-8 beyond ASCII, with or without a byte-order mark, and a charset of UTF-8', async () => {
    const bodies: Array<[Buffer, string]> = [
      [Buffer.from('{"slug":"accents","name":"Équipe née à Zürich 🚀"}'), 'application/json'],
      [Buffer.from('\ufeff{"slug":"bom","name":"Byte-order mark"}'), 'application/json'],
      [Buffer.from(' \r\n\t{"slug":"spaced","name":"Spaced"}'), 'application/json; charset=UTF-8'],
      [Buffer.from('{"slug":"quoted","name":"Quoted"}'), 'application/json; charset="utf-8"'],
    ];
    for (const [body, type] of bodies) {
      const res = await send('POST', '/teams', body, { 'content-type': type });
      expect(res.status, `${type}: ${res.text}`).toBe(201);
    }
    const { teams } = await okBody(org.call('owner', 'listTeams'), 200);
    expect(teams.find((t) => t.slug === 'accents')?.name).toBe('Équipe née à Zürich 🚀');
  });

  it('refuses another charset, a top-level value that is not an object or array, and bare whitespace', async () => {
    const before = await teamSlugs();
    const refused: Array<[string, string]> = [
      ['{"slug":"latin","name":"Latin"}', 'application/json; charset=iso-8859-1'],
      ['{"slug":"wide","name":"Wide"}', 'application/json; charset=utf-16'],
      ['"a string"', 'application/json'],
      ['42', 'application/json'],
      ['null', 'application/json'],
      [' \n ', 'application/json'],
      ['{"slug":"cut","name":', 'application/json'],
    ];
    for (const [body, type] of refused) {
      const res = await send('POST', '/teams', body, { 'content-type': type });
      expectError(res, 400, 'validation_failed');
    }
    expect(await teamSlugs()).toEqual(before);
  });

  it('names what a body holds when it is valid JSON but no object', async () => {
    const before = await teamSlugs();
    const kinds: Array<[string, string]> = [
      ['[{"slug":"arr","name":"Array"}]', 'an array'],
      ['"a string"', 'a string'],
      ['42', 'a number'],
      ['true', 'a boolean'],
      ['null', 'null'],
    ];
    for (const [body, kind] of kinds) {
      const res = await send('POST', '/teams', body, { 'content-type': 'application/json' });
      expectError(res, 400, 'validation_failed');
      expect(res.body).toEqual({
        error: { code: 'validation_failed', message: `The request body must be a JSON object; got ${kind}.` },
      });
    }
    expect(await teamSlugs()).toEqual(before);
  });

  it('refuses a key given twice in one object, naming it, where JSON.parse would keep the last', async () => {
    const before = await teamSlugs();
    const bodies: Array<[string, string]> = [
      ['{"slug":"dup","name":"First","name":"Second"}', '/body/name'],
      ['{"slug":"esc","name":"N","\\u0073lug":"other"}', '/body/slug'],
    ];
    for (const [body, path] of bodies) {
      const res = await send('POST', '/teams', body, { 'content-type': 'application/json' });
      expectError(res, 400, 'validation_failed');
      expect(res.body).toEqual({
        error: {
          code: 'validation_failed',
          message: `${path} is given more than once in its object.`,
          details: [{ path, message: 'is given more than once in its object' }],
        },
      });
    }
    // In a nested object too, named by its path; a key-like text inside a string is no key.
    const nested = '{"label":"L","kind":"http","endpointUrl":"https://mcp.example.com","headers":{"a":"1","a":"2"}}';
    const res = await send('PUT', '/capability-connections/dup', nested, { 'content-type': 'application/json' });
    expectError(res, 400, 'validation_failed');
    expect((res.body as { error: { details: unknown } }).error.details).toEqual([
      { path: '/body/headers/a', message: 'is given more than once in its object' },
    ]);
    const quoted = '{"slug":"quoted-key","name":"N","description":"\\"name\\":\\"x\\""}';
    expectOk(await send('POST', '/teams', quoted, { 'content-type': 'application/json' }), 201);
    expect(await teamSlugs()).toEqual([...before, 'quoted-key'].sort());
  });

  it('answers 415 to a body that is not JSON', async () => {
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x']) {
      expectError(
        await send('POST', '/teams', 'slug=form&name=Form', { 'content-type': type }),
        415,
        'unsupported_media_type',
      );
    }
    expect(await teamSlugs()).not.toContain('form');
  });

  it('refuses U+0000 and lone surrogates in any string of a body, and in keys', async () => {
    const { id: projectId } = await okBody(org.call('owner', 'createProject', { body: { name: 'Kept' } }), 201);
    const cases: Array<[string, string, unknown]> = [
      ['POST', '/teams', { slug: 'nul', name: 'a\u0000b' }],
      ['POST', '/teams', { slug: 'nul-desc', name: 'N', description: 'line\u0000' }],
      ['POST', '/members', { imOpenId: 'nul\u0000user', role: 'MEMBER' }],
      ['POST', '/folders', { name: 'f\u0000' }],
      ['POST', '/projects', { name: 'a\ud800b' }],
      ['PATCH', `/projects/${projectId}`, { name: '\udc00' }],
      ['POST', '/teams', { slug: 'key', name: 'K', 'x\u0000': 1 }],
    ];
    for (const [method, path, body] of cases) {
      const res = await org.api('owner', method, path, body);
      expectError(res, 400, 'validation_failed');
    }
    expect(await teamSlugs()).not.toEqual(expect.arrayContaining(['nul']));
    const detail = await okBody(org.call('owner', 'getProject', { path: { projectId } }), 200);
    expect(detail.name).toBe('Kept');
  });

  it('keeps a well-formed astral character (a surrogate pair) and line breaks in free text', async () => {
    const res = await org.api('owner', 'POST', '/teams', {
      slug: 'astral',
      name: 'Rocket 🚀',
      description: 'two\nlines\tand a tab',
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ name: 'Rocket 🚀', description: 'two\nlines\tand a tab' });
  });

  it('refuses control characters and blank names from the schema', async () => {
    for (const name of ['   ', '\t', 'line\nbreak', 'bell\u0007', '\u2028']) {
      const res = await org.api('owner', 'POST', '/teams', { slug: 'blank', name });
      expectError(res, 400, 'validation_failed');
      expect(res.body).toMatchObject({ error: { details: [{ path: '/body/name' }] } });
    }
    expectError(
      await org.api('owner', 'POST', '/members', { imOpenId: 'tab\there', role: 'MEMBER' }),
      400,
      'validation_failed',
    );
    expect(await teamSlugs()).not.toContain('blank');
  });
});

describe('timestamps', () => {
  const usage = (from: string, to = '2028-01-01T00:00:00Z') =>
    org.api('owner', 'GET', `/usage?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`);

  it('are strict RFC 3339: impossible fields are 400, never a 500 or a silent rollover', async () => {
    for (const from of [
      '2026-13-01T00:00:00Z',
      '2026-00-10T00:00:00Z',
      '2026-01-01T25:00:00Z',
      '2026-01-01T10:60:00Z',
      '2026-06-30T23:59:60Z',
      '2026-01-01T00:00:00+25:00',
      '2026-01-01T00:00:00+01:60',
      '2026-02-30T00:00:00Z',
      '2025-02-29T00:00:00Z',
      '2026-04-31T00:00:00Z',
      '2026-01-01',
      '2026-01-01T00:00:00',
    ]) {
      expectError(await usage(from), 400, 'validation_failed');
    }
  });

  it('accepts every well-formed one: offsets, fractions, leap days', async () => {
    for (const from of [
      '2024-02-29T00:00:00Z',
      '2026-01-01T00:00:00.123456+05:30',
      '2026-12-31T23:59:59-12:00',
      '2026-01-01t00:00:00z',
    ]) {
      const res = await usage(from);
      expect(res.status, `${from}: ${res.text}`).toBe(200);
    }
  });
});

describe('query strings', () => {
  it('treat empty values as absent', async () => {
    const res = await org.api('owner', 'GET', '/usage?from=&to=&folderId=');
    expect(res.status, res.text).toBe(200);
    const limited = await hub.request('GET', `/api/org/${org.slug}/projects/${'0'.repeat(8)}/sessions?limit=`, {
      cookie: org.cookies.owner,
    });
    expect(limited.status).not.toBe(400);
  });
});

describe('methods', () => {
  /**
   * A request written byte for byte on a socket: Node's clients refuse TRACE, or a body on it.
   * The answer is read until the server closes the connection (`Connection: close`).
   */
  function raw(
    method: string,
    path: string,
    body = '',
  ): Promise<{ status: number; allow: string | undefined; text: string }> {
    const { hostname, port } = new URL(hub.url);
    return new Promise((resolve, reject) => {
      const socket = connect(Number(port), hostname, () => {
        const head = [
          `${method} ${path} HTTP/1.1`,
          `Host: ${hostname}:${port}`,
          `Cookie: ${org.cookies.owner}`,
          'Connection: close',
        ];
        if (body) head.push('Content-Type: application/json', `Content-Length: ${Buffer.byteLength(body)}`);
        // write, not end: a client that half-closes its side has Node's server abort the request
        // it is still answering; with `Connection: close` the server ends the connection itself.
        socket.write(`${head.join('\r\n')}\r\n\r\n${body}`);
      });
      let answer = '';
      socket.on('data', (chunk) => (answer += chunk));
      socket.on('error', reject);
      socket.on('close', () => {
        const [headers = '', text = ''] = answer.split('\r\n\r\n', 2);
        const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(headers)?.[1]);
        const allow = /^allow: (.*)$/im.exec(headers)?.[1]?.trim();
        resolve({ status, allow, text });
      });
    });
  }

  it('answer HEAD on every GET route like GET, without a body', async () => {
    for (const path of [
      `/api/org/${org.slug}`,
      `/api/org/${org.slug}/members`,
      `/api/org/${org.slug}/explorer`,
      '/api/me',
    ]) {
      const get = await raw('GET', path);
      const head = await raw('HEAD', path);
      expect(head.status, path).toBe(get.status);
      expect(head.text).toBe('');
    }
    expect((await hub.request('HEAD', '/api/me')).status).toBe(401);
  });

  it('answer 405 with Allow to a method a path does not have, whatever the body', async () => {
    for (const method of ['TRACE', 'PATCH', 'PUT', 'DELETE']) {
      const res = await raw(method, `/api/org/${org.slug}/teams`, '{"broken": ');
      expect(res.status, method).toBe(405);
      expect(res.allow).toBe('GET, POST');
      expect(JSON.parse(res.text)).toMatchObject({ error: { code: 'method_not_allowed' } });
    }
  });
});

describe('deeply nested bodies', () => {
  /** `depth` arrays, each holding the next. */
  const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
  /** A body `depth` levels deep: an object holding arrays, each holding the next. */
  const body = (depth: number) => `{"x":${nested(depth - 1)}}`;

  it('refuse 6,000 levels of brackets with 400, and the server keeps answering', async () => {
    const before = await teamSlugs();
    const res = await send('POST', '/teams', body(6000), { 'content-type': 'application/json' });
    expectError(res, 400, 'validation_failed');
    expect(res.body).toMatchObject({ error: { message: expect.stringContaining('64 levels') } });
    // Far deeper still, and inside an object: the walk keeps its own stack.
    const deeper = `{"slug":"deep","name":"Deep","x":${nested(200_000)}}`;
    expectError(await send('POST', '/teams', deeper, { 'content-type': 'application/json' }), 400, 'validation_failed');
    expect(await teamSlugs()).toEqual(before);
  });

  it('allow 64 levels (the contract then judges the body) and refuse 65', async () => {
    const at64 = await send('POST', '/teams', body(64), { 'content-type': 'application/json' });
    expectError(at64, 400, 'validation_failed');
    expect(at64.text).not.toContain('levels');
    const at65 = await send('POST', '/teams', body(65), { 'content-type': 'application/json' });
    expectError(at65, 400, 'validation_failed');
    expect(at65.body).toMatchObject({ error: { details: [{ path: `/body/x${'/0'.repeat(63)}` }] } });
  });

  it('answer an anonymous caller 401 before reading them', async () => {
    expectError(await hub.request('POST', `/api/org/${org.slug}/teams`, { body: body(6000) }), 401, 'unauthenticated');
  });
});

describe('paths and query strings', () => {
  /** A request to exactly this path (fetch keeps percent-escapes as they are), signed in or not. */
  const raw = (method: string, path: string, signedIn: boolean, body?: unknown) =>
    hub.request(method, path, { cookie: signedIn ? org.cookies.owner : undefined, body });

  it('refuse percent-encoding that does not decode in a path with 400, signed in or not', async () => {
    const before = await teamSlugs();
    for (const signedIn of [true, false]) {
      for (const [method, path, body] of [
        ['GET', '/api/org/%FF/teams'],
        ['POST', '/api/org/%E0%A4%A/teams', { slug: 'pct', name: 'Pct' }],
        ['PATCH', `/api/org/${org.slug}/teams/%ED%A0%80`, { name: 'Surrogate' }],
        ['GET', `/api/org/${org.slug}/projects/50%`],
      ] as const) {
        const res = await raw(method, path, signedIn, body);
        expectError(res, 400, 'validation_failed');
        expect(res.body).toMatchObject({ error: { message: expect.stringContaining('percent-encoded UTF-8') } });
      }
    }
    expect(await teamSlugs()).toEqual(before);
  });

  it('refuse U+0000 in any path parameter or query value with 400 (PostgreSQL cannot hold it)', async () => {
    const team = await org.call('owner', 'createTeam', { body: { slug: 'kept-nul', name: 'Kept' } });
    expect(team.status, team.text).toBe(201);
    const project = await org.call('owner', 'createProject', { body: { name: 'Kept nul' } });
    expect(project.status, project.text).toBe(201);
    const [teamId, projectId] = [(team.body as { id: string }).id, (project.body as { id: string }).id];
    const before = await teamSlugs();
    const cases: Array<[string, string, unknown?]> = [
      ['GET', `/api/org/${org.slug}/audit-events?targetId=a%00b`],
      ['GET', `/api/org/${org.slug}/audit-events?actorId=a%00b`],
      ['GET', `/api/org/${org.slug}/audit-events?action=a%00b`],
      ['GET', `/api/org/${org.slug}/audit-events?targetType=a%00b`],
      ['GET', `/api/org/${org.slug}/usage/breakdown?projectId=a%00b`],
      ['GET', `/api/org/${org.slug}/usage?folderId=%00`],
      ['POST', `/api/org/${org.slug}/projects/a%00b/archive`],
      ['POST', `/api/org/${org.slug}/projects/${projectId}%00/archive`],
      ['PATCH', `/api/org/${org.slug}/teams/a%00b`, { name: 'Renamed' }],
      ['PATCH', `/api/org/${org.slug}/teams/${teamId}%00`, { name: 'Renamed' }],
      ['GET', '/api/org/a%00b'],
      ['GET', `/api/org/${org.slug}%00`],
    ];
    for (const [method, path, body] of cases) {
      const res = await raw(method, path, true, body);
      expectError(res, 400, 'validation_failed');
      expect(res.body, path).toMatchObject({ error: { message: expect.stringContaining('U+0000') } });
    }
    expect(await teamSlugs()).toEqual(before);
    const teams = (await org.call('owner', 'listTeams')).body as { teams: Array<{ id: string; name: string }> };
    expect(teams.teams.find((t) => t.id === teamId)).toMatchObject({ name: 'Kept' });
    expect((await org.call('owner', 'getProject', { path: { projectId } })).body).toMatchObject({ archivedAt: null });
  });

  it('refuse a query value whose percent-encoding does not decode, rather than repair it', async () => {
    for (const query of ['from=%FF', 'targetId=%ED%A0%80', 'action=100%', 'targetType=%E0%A4%A']) {
      const res = await raw('GET', `/api/org/${org.slug}/audit-events?${query}`, true);
      expectError(res, 400, 'validation_failed');
      expect(res.body).toMatchObject({ error: { details: [{ path: `/query/${query.split('=')[0]}` }] } });
    }
    // A well-encoded value that decodes to a percent sign or to any character is fine.
    const fine = await raw('GET', `/api/org/${org.slug}/audit-events?action=100%25&targetId=%F0%9F%9A%80`, true);
    expect(fine.status, fine.text).toBe(200);
  });

  it('answer an anonymous caller 401 first, as for any other bad input', async () => {
    for (const path of [
      `/api/org/${org.slug}/audit-events?targetId=a%00b`,
      '/api/org/a%00b',
      `/api/org/${org.slug}/usage?from=%FF`,
    ]) {
      expectError(await raw('GET', path, false), 401, 'unauthenticated');
    }
  });
});

describe('timestamps at the ends of the range', () => {
  const tokenNames = async () =>
    ((await org.call('owner', 'listApiTokens')).body as { tokens: Array<{ name: string }> }).tokens.map((t) => t.name);

  it('refuse one whose instant in UTC leaves the years 0000–9999, on every database', async () => {
    for (const expiresAt of ['9999-12-31T23:59:59-23:59', '9999-12-31T23:00:00-01:00']) {
      const res = await org.api('owner', 'POST', '/api-tokens', { name: 'far', scopes: ['org:read'], expiresAt });
      expectError(res, 400, 'validation_failed');
    }
    expect(await tokenNames()).not.toContain('far');
    for (const from of ['0000-01-01T00:00:00+01:00', '0000-01-01T00:59:59+01:00']) {
      expectError(
        await org.api('owner', 'GET', `/usage?from=${encodeURIComponent(from)}&to=2028-01-01T00:00:00Z`),
        400,
        'validation_failed',
      );
    }
  });

  it('accept the last and first instants of the range and answer them as given, in UTC', async () => {
    const created = await org.api('owner', 'POST', '/api-tokens', {
      name: 'farthest',
      scopes: ['org:read'],
      expiresAt: '9999-12-31T23:58:59-00:01',
    });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({ expiresAt: '9999-12-31T23:59:59.000Z' });
    const usage = await org.api('owner', 'GET', `/usage?from=${encodeURIComponent('0000-01-01T01:00:00+01:00')}`);
    expect(usage.status, usage.text).toBe(200);
    expect(usage.body).toMatchObject({ from: '0000-01-01T00:00:00.000Z' });
  });
});

describe('labels and ids', () => {
  it('refuse control characters in a skill label (line breaks and tabs aside) and the chat ids', async () => {
    const skill = await org.call('owner', 'installAgentSkill', {
      path: { name: 'labelled' },
      body: {
        version: '1.0.0',
        files: [{ path: 'SKILL.md', content: '---\nname: labelled\ndescription: Kept\n---\n' }],
      },
    });
    expect(skill.status, skill.text).toBe(200);
    for (const description of ['x\u0007y', 'esc\u001b[0m', 'form\ffeed', '']) {
      const res = await org.api('owner', 'PATCH', '/agent-skills/labelled', { description });
      expectError(res, 400, 'validation_failed');
      expect(res.body).toMatchObject({ error: { details: [{ path: '/body/description' }] } });
    }
    const labelOf = async () =>
      (await okBody(org.call('owner', 'listAgentSkills'))).skills.find((s) => s.name === 'labelled')?.description;
    expect(await labelOf()).toBe('Kept');
    // A label is text as a SKILL.md description may hold it: line breaks and tabs stay.
    const multiline = 'Two lines\n\twith a tab\r\n';
    expectOk(await org.api('owner', 'PATCH', '/agent-skills/labelled', { description: multiline }));
    expect(await labelOf()).toBe(multiline);

    const chat = { appId: 'cli_a1b2c3', appSecret: 'secret', botOpenId: 'ou_bot' };
    for (const [field, value] of [
      ['botOpenId', 'ou\u0007bot'],
      ['botOpenId', 'ou\tbot'],
      ['appId', 'cli\u001b'],
    ] as const) {
      const res = await org.api('owner', 'PUT', '/imapp-application-connection', { ...chat, [field]: value });
      expectError(res, 400, 'validation_failed');
      expect(res.body).toMatchObject({ error: { details: [{ path: `/body/${field}` }] } });
    }
    expect((await org.call('owner', 'getChatApplicationConnection')).body).toEqual({ connection: null });
  });
});
