import type { OrgRole } from '../../src/orgs/store.js';
import type { ApiResult, HttpResult, OrgCallArgs, OrgOperationId } from './api-client.js';
import type { TestHub } from './test-hub.js';

export type OrgActor = 'owner' | 'admin' | 'member';

/** An organization of its own for one scenario, so its changes cannot disturb another test. */
export interface OrgFixture {
  slug: string;
  id: string;
  cookies: Record<OrgActor, string>;
  userIds: Record<OrgActor, string>;
  /** A raw request to `/api/org/<slug><path>` as one of the organization's actors (for invalid input). */
  api(actor: OrgActor, method: string, path: string, body?: unknown): Promise<HttpResult>;
  /** A typed call of one of the organization's operations as one of its actors (`orgSlug` filled in). */
  call<O extends OrgOperationId>(actor: OrgActor, operationId: O, ...input: OrgCallArgs<O>): Promise<ApiResult<O>>;
}

/**
 * Creates the organization `slug` with `<slug>-owner` (display name `Owner of <slug>`),
 * `<slug>-admin` and `<slug>-member`, each logged in.
 */
export async function seedOrg(hub: TestHub, slug: string): Promise<OrgFixture> {
  const org = await hub.createOrg(slug, `${slug}-owner`);
  const roles: Array<[OrgActor, OrgRole]> = [
    ['admin', 'ADMIN'],
    ['member', 'MEMBER'],
  ];
  for (const [actor, role] of roles) await hub.addMembership(org.id, `${slug}-${actor}`, role);
  const cookies = {} as Record<OrgActor, string>;
  const userIds = {} as Record<OrgActor, string>;
  for (const actor of ['owner', 'admin', 'member'] as const) {
    cookies[actor] = await hub.login(`${slug}-${actor}`);
    userIds[actor] = (await userIdOf(hub, `${slug}-${actor}`))!;
  }
  return {
    slug,
    id: org.id,
    cookies,
    userIds,
    api: (actor, method, path, body) =>
      hub.request(method, `/api/org/${slug}${path}`, { cookie: cookies[actor], body }),
    call: (actor, operationId, ...input) => hub.orgCall(slug, cookies[actor], operationId, ...input),
  };
}

/** The id of the user with this imOpenId, or undefined when there is none. */
export async function userIdOf(hub: TestHub, imOpenId: string): Promise<string | undefined> {
  return (await hub.services.users.findByImOpenId(hub.services.db, imOpenId))?.id;
}
