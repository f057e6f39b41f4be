import { isDeepStrictEqual } from 'node:util';
import { recordChange } from '../audit/trail.js';
import type { Executor } from '../db/unit-of-work.js';
import { toAgentSkillRow } from './projection.js';
import type { SkillWithRoles } from './store.js';

/**
 * The skill's audit event, as `AgentSkillRow` shows it, named by the skill's name; a call that
 * leaves the skill as the API showed it records none. Installs and the PATCH both record here.
 */
export async function recordSkillChange(
  trx: Executor,
  before: SkillWithRoles | null,
  after: SkillWithRoles,
): Promise<void> {
  const shown = { before: before && toAgentSkillRow(before), after: toAgentSkillRow(after) };
  if (isDeepStrictEqual(shown.before, shown.after)) return;
  await recordChange(trx, {
    organizationId: after.skill.organization_id,
    target: { type: 'agent_skill', id: after.skill.name, label: after.skill.name },
    ...shown,
  });
}
