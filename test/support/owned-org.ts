import { afterAll, beforeAll } from 'vitest';
import { TestHub } from './test-hub.js';

/** A file's hub and the `Cookie` header of its organization's signed-in OWNER. */
export interface OwnedOrg {
  readonly hub: TestHub;
  readonly cookie: string;
}

/**
 * A hub for the tests of one file, started before them and stopped after them, holding the
 * organization `slug` with its OWNER (`<slug>-owner`) signed in.
 */
export function hubWithOwnedOrg(slug: string, options: Parameters<typeof TestHub.start>[0] = {}): OwnedOrg {
  let started: OwnedOrg | undefined;
  beforeAll(async () => {
    const hub = await TestHub.start(options);
    await hub.createOrg(slug, `${slug}-owner`);
    started = { hub, cookie: await hub.login(`${slug}-owner`) };
  });
  afterAll(() => started?.hub.stop());
  const current = (): OwnedOrg => {
    if (!started) throw new Error('the hub starts in beforeAll: use it inside a test or a hook');
    return started;
  };
  return {
    get hub() {
      return current().hub;
    },
    get cookie() {
      return current().cookie;
    },
  };
}
