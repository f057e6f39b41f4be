// A skill file's bound is the organization's effective fileSize limit in bytes, which the
// service enforces: the schema bounds no content length, so a platform ceiling raised above the
// default 5 MiB is usable, and a limit is never met in characters where bytes are meant.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config.js';
import { removeTree } from '../../src/skills/content-store.js';
import { expectError, okBody } from '../support/assertions.js';
import { seedOrg, type OrgFixture } from '../support/org-fixture.js';
import { TestHub } from '../support/test-hub.js';
import { skillMd } from '../skills/support.js';

/** Above the default fileSize ceiling of 5 MiB (5,242,880 bytes), under the body limit of 8 MiB. */
const CEILING = 7_000_000;

let hub: TestHub;
let org: OrgFixture;

beforeAll(async () => {
  hub = await TestHub.start({ config: { ceilings: loadConfig({ HUB_CEILING_FILE_SIZE: String(CEILING) }).ceilings } });
  org = await seedOrg(hub, 'big-files');
});
afterAll(async () => {
  // Stored entries are read-only; removing them needs writable directories unless running as root.
  if (hub) await removeTree(path.join(hub.database.dataDir, 'skills'));
  await hub?.stop();
});

const install = (name: string, content: string) =>
  org.call('owner', 'installAgentSkill', {
    path: { name },
    body: { version: '1.0.0', files: [skillMd(name), { path: 'data.txt', content }] },
  });

const skillRows = () => hub.services.db('agent_skills').select('name', 'content_digest').orderBy('name');

describe('a skill file above the default 5 MiB', () => {
  it('is accepted up to the raised ceiling, counted in bytes', async () => {
    const installed = await okBody(install('six-megabytes', 'x'.repeat(6_000_000)), 200);
    const files = await okBody(org.call('owner', 'getAgentSkillFiles', { path: { name: 'six-megabytes' } }), 200);
    expect(files.files.find((f) => f.path === 'data.txt')?.content).toHaveLength(6_000_000);
    expect(installed.name).toBe('six-megabytes');
  });

  it('is refused over the effective limit in bytes though under it in characters, changing nothing', async () => {
    const before = await skillRows();
    // 3,500,001 characters of two bytes each: 7,000,002 bytes, over the ceiling of 7,000,000.
    const wide = 'é'.repeat(CEILING / 2 + 1);
    expect(wide.length).toBeLessThan(CEILING);
    const refused = expectError(await install('too-wide', wide), 422, 'invalid_skill');
    expect(refused.error.message).toContain(`has ${CEILING + 2} bytes`);

    // The organization's own lower limit is the effective one.
    const policy = await org.call('owner', 'updateCapacityPolicy', { body: { limits: { fileSize: 6_000_000 } } });
    expect(policy.status, policy.text).toBe(200);
    const over = expectError(await install('over-own-limit', 'é'.repeat(3_000_001)), 422, 'invalid_skill');
    expect(over.error.message).toContain('6000002 bytes');
    expect(await skillRows()).toEqual(before);
  });
});
