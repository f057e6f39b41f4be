import type { TestHub } from './test-hub.js';

export type ActorName = 'anonymous' | 'otherOrgOwner' | 'member' | 'admin' | 'owner';
export const ACTORS: ActorName[] = ['anonymous', 'otherOrgOwner', 'member', 'admin', 'owner'];

/**
 * The organization `acme` with an OWNER, an ADMIN and a MEMBER, plus the OWNER of another
 * organization `globex`; returns each actor's cookie (none for anonymous).
 */
export async function seedActors(hub: TestHub): Promise<Record<ActorName, string | undefined>> {
  const acme = await hub.createOrg('acme', 'owner-1');
  await hub.addMembership(acme.id, 'admin-1', 'ADMIN');
  await hub.addMembership(acme.id, 'member-1', 'MEMBER');
  await hub.createOrg('globex', 'globex-owner');
  return {
    anonymous: undefined,
    otherOrgOwner: await hub.login('globex-owner'),
    member: await hub.login('member-1'),
    admin: await hub.login('admin-1'),
    owner: await hub.login('owner-1'),
  };
}
