import type { OrganizationRecord } from '../orgs/store.js';
import type { Runtime } from './runtime.js';
import { UsageError } from './usage-error.js';

/** Runs one piece of console work on an open runtime, which is closed after it (`hub.ts`'s `withRuntime`). */
export type WithRuntime = (work: (runtime: Runtime) => Promise<void>) => Promise<void>;

/** Where a console command writes its answer. */
export interface Output {
  write(text: string): unknown;
}

/** The organization a command names by slug; a slug that names none is the caller's mistake. */
export async function organizationNamed(runtime: Runtime, slug: string): Promise<OrganizationRecord> {
  const org = await runtime.organizations.findBySlug(slug);
  if (!org) throw new UsageError(`no organization "${slug}"`);
  return org;
}
