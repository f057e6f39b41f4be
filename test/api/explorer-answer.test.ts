import { beforeAll, describe, expect, it } from 'vitest';
import type { Schema } from '../../src/api/types.js';
import { expectOk, okBody } from '../support/assertions.js';
import type { OrgCallArgs, OrgOperationId } from '../support/api-client.js';
import { inProjectListOrder } from '../support/list-order.js';
import { hubWithOwnedOrg } from '../support/owned-org.js';

/**
 * The explorer's answer, and a member's own projects: the projects' text the database writes is
 * sent as it is when `isInListOrder` takes it. The test client checks it against the contract as
 * it checks every answer; these tests hold it to what the schema cannot say: the schema's members
 * in order, every project's own values, the list's order, and the very bytes `res.json` would send.
 */
const initech = hubWithOwnedOrg('initech');

const call = <O extends OrgOperationId>(operationId: O, ...input: OrgCallArgs<O>) =>
  initech.hub.orgCall('initech', initech.cookie, operationId, ...input);

async function createProject(name: string, folderId: string | null): Promise<string> {
  const res = await call('createProject', { body: { name, ...(folderId && { folderId }) } });
  expectOk(res, 201);
  return res.body.id;
}

/** The explorer's answer as sent: its text and headers, and its body parsed. */
async function explorer() {
  const res = await initech.hub.request('GET', '/api/org/initech/explorer', { cookie: initech.cookie });
  expect(res.status).toBe(200);
  return { text: res.text, type: res.headers.get('content-type'), body: res.body as Schema<'ExplorerData'> };
}

/**
 * The caller's own projects as sent. The owner made every project here, and a project's creator
 * holds MANAGE on it, so theirs are the explorer's projects: the same objects in the same order.
 */
async function expectMyProjectsAsTheExplorers(projects: Schema<'ExplorerProject'>[]) {
  const res = await initech.hub.request('GET', '/api/org/initech/my-projects', { cookie: initech.cookie });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
  expect(res.text).toBe(JSON.stringify({ projects }));
}

/** Each listed project against the project's own detail, member by member and in the schema's order. */
async function expectEachProjectAsItsDetail(projects: Schema<'ExplorerProject'>[]) {
  for (const listed of projects) {
    expect(Object.keys(listed)).toEqual(['id', 'name', 'folderId', 'createdAt', 'binding']);
    const detail = await okBody(call('getProject', { path: { projectId: listed.id } }));
    expect(listed).toEqual({
      id: detail.id,
      name: detail.name,
      folderId: detail.folder?.id ?? null,
      createdAt: detail.createdAt,
      binding: detail.binding,
    });
  }
}

describe('the explorer answer', () => {
  // Names whose order by bytes and by the locale differ (case, punctuation, digits), letters
  // beyond ASCII that lower-casing leaves alone, a tie only the id breaks, and JSON's own escapes.
  const names = [
    'beta',
    'Alpha',
    'alpha',
    'a_b',
    'ab',
    'A-c',
    'Zeta',
    '0day',
    'zeta',
    '~tilde',
    'Alpha',
    'say "hi" \\ o/',
    'émile',
    'Zürich',
  ];
  const ids: string[] = [];
  let folderId: string;

  beforeAll(async () => {
    const folder = await call('createFolder', { body: { name: 'Ops' } });
    expectOk(folder, 201);
    folderId = folder.body.id;
    for (const [i, name] of names.entries()) ids.push(await createProject(name, i % 3 === 0 ? folderId : null));
    const org = await initech.hub.services.organizations.findBySlug('initech');
    await initech.hub.services.projects.bindChat(org!.id, ids[1]!, 'oc_initech_1');
    await initech.hub.services.projects.bindChat(org!.id, ids[7]!, 'oc_initech_2');
    expectOk(await call('archiveProject', { path: { projectId: await createProject('aaa archived', folderId) } }));
  });

  it('with names lower() folds as toLowerCase does: the text as written, the bytes res.json would send', async () => {
    const { text, type, body } = await explorer();
    expect(type).toBe('application/json; charset=utf-8');
    expect(text).toBe(JSON.stringify(body));
    expect(body.projects.map((p) => p.name).sort()).toEqual([...names].sort());
    expect(body.projects.map((p) => p.id)).toEqual(inProjectListOrder(body.projects).map((p) => p.id));
    expect(body.projects.filter((p) => p.binding).map((p) => [p.id, p.binding!.chatId])).toEqual(
      expect.arrayContaining([
        [ids[1], 'oc_initech_1'],
        [ids[7], 'oc_initech_2'],
      ]),
    );
    await expectEachProjectAsItsDetail(body.projects);
    await expectMyProjectsAsTheExplorers(body.projects);
    const [ops] = body.folders;
    expect(body.folders).toHaveLength(1);
    expect(ops).toMatchObject({ id: folderId, name: 'Ops', projectCount: 5, childFolderCount: 0 });
  });

  it('with a capital beyond ASCII: sorted here, the same members and text as res.json makes', async () => {
    // 'ß' sorts between 'Ä' and 'ä': the database's order puts Ärger first, the list's ßar.
    const id = await createProject('Ärger', folderId);
    const sharp = await createProject('ßar', null);
    const { text, body } = await explorer();
    expect(text).toBe(JSON.stringify(body));
    expect(body.projects.map((p) => p.id)).toEqual(inProjectListOrder(body.projects).map((p) => p.id));
    expect(body.projects.slice(-3).map((p) => p.id)).toEqual([sharp, id, ids[names.indexOf('émile')]]);
    await expectEachProjectAsItsDetail(body.projects);
    await expectMyProjectsAsTheExplorers(body.projects);
    expect(body.folders[0]!.projectCount).toBe(6);
  });

  it('with no projects: an empty list', async () => {
    await initech.hub.createOrg('hooli', 'hooli-owner');
    const owner = await initech.hub.login('hooli-owner');
    const res = await initech.hub.request('GET', '/api/org/hooli/explorer', { cookie: owner });
    expect(res.status).toBe(200);
    expect(res.text).toBe('{"folders":[],"projects":[]}');
    const mine = await initech.hub.request('GET', '/api/org/hooli/my-projects', { cookie: owner });
    expect(mine.status).toBe(200);
    expect(mine.text).toBe('{"projects":[]}');
  });
});
