/**
 * What the browser tests start from. Organization `acme`: OWNER olivia (also OWNER of `beta`, for
 * the org switcher), ADMIN adam, MEMBER mia; teams platform (mia) and design; folders
 * Engineering / Backend; projects Billing (in Backend, team platform READ), Website (top level),
 * Secret (no grant for mia). Projects are created by olivia, who therefore holds MANAGE on them;
 * adam holds none, so he oversees read-only.
 */
import { apiAs } from './hub';

export type Seed = {
  org: string;
  projects: { billing: string; website: string; secret: string };
  teams: { platform: string; design: string };
  folders: { engineering: string; backend: string };
};

export async function seed(hub: (args: string[]) => string): Promise<Seed> {
  hub(['org', 'create', 'acme', '--name', 'Acme Corp', '--owner', 'olivia', '--owner-name', 'Olivia Owner']);
  // Each organization names its people itself (until they sign in through a provider): beta too.
  hub(['org', 'create', 'beta', '--name', 'Beta Labs', '--owner', 'olivia', '--owner-name', 'Olivia Owner']);
  const owner = await apiAs('olivia');
  const org = '/api/org/acme';
  await owner.call('POST', `${org}/members`, { imOpenId: 'adam', displayName: 'Adam Admin', role: 'ADMIN' });
  const mia = await owner.call('POST', `${org}/members`, {
    imOpenId: 'mia',
    displayName: 'Mia Member',
    role: 'MEMBER',
  });
  for (let i = 1; i <= 40; i += 1) {
    await owner.call('POST', `${org}/members`, {
      imOpenId: `user-${String(i).padStart(3, '0')}`,
      displayName: `User ${i}`,
      role: 'MEMBER',
    });
  }
  const platform = await owner.call('POST', `${org}/teams`, {
    slug: 'platform',
    name: 'Platform',
    description: 'Runs the platform',
  });
  const design = await owner.call('POST', `${org}/teams`, { slug: 'design', name: 'Design' });
  await owner.call('POST', `${org}/teams/${platform.id}/members`, { userId: mia.userId });
  const engineering = await owner.call('POST', `${org}/folders`, { name: 'Engineering' });
  const backend = await owner.call('POST', `${org}/folders`, { name: 'Backend', parentId: engineering.id });
  const billing = await owner.call('POST', `${org}/projects`, { name: 'Billing', folderId: backend.id });
  const website = await owner.call('POST', `${org}/projects`, { name: 'Website' });
  const secret = await owner.call('POST', `${org}/projects`, { name: 'Secret' });
  await owner.call('PUT', `${org}/projects/${billing.id}/team-access`, { teamId: platform.id, role: 'READ' });
  hub(['project', 'bind', 'acme', billing.id, 'chat-billing']);
  return {
    org: 'acme',
    projects: { billing: billing.id, website: website.id, secret: secret.id },
    teams: { platform: platform.id, design: design.id },
    folders: { engineering: engineering.id, backend: backend.id },
  };
}
