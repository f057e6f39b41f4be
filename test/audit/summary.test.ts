import { describe, expect, it } from 'vitest';
import { SUMMARY_TEMPLATES, summarize } from '../../src/audit/summary.js';
import { changesState, listOperations } from '../../src/http/openapi-document.js';
import { AUTO_JOIN_ACTION } from '../../src/auto-join/service.js';
import { BUDGET_THRESHOLD, WEBHOOK_DISABLED } from '../../src/webhooks/events.js';
import { AUDIT_ACTIONS, OTHER_ACTIONS } from '../../web/src/features/audit/actions.js';

/**
 * Every action the service writes has a sentence of its own: each mutating operation of
 * openapi.yaml, the service's own actions and the host console's commands that change an
 * organization. An operation added to the contract without a template fails here.
 */

const MUTATING = listOperations()
  .filter(changesState)
  .map(({ operationId }) => operationId);
const SERVICE_ACTIONS = [AUTO_JOIN_ACTION, BUDGET_THRESHOLD, WEBHOOK_DISABLED];
const CONSOLE_ACTIONS = OTHER_ACTIONS.filter((action) => action.startsWith('hub.'));

const event = (action: string, label: string | null, before: unknown = null, after: unknown = null) => ({
  actor: { type: 'user', displayName: 'Dana' },
  action,
  target: { type: 'member', id: 'u1', label },
  changes: { before, after },
});

describe('audit sentences', () => {
  it('have a template for every action the service writes', () => {
    const missing = [...MUTATING, ...SERVICE_ACTIONS, ...CONSOLE_ACTIONS].filter(
      (action) => !SUMMARY_TEMPLATES[action],
    );
    expect(missing).toEqual([]);
  });

  it("are the web app's action picker's list, no more and no fewer", () => {
    expect([...AUDIT_ACTIONS].sort()).toEqual(Object.keys(SUMMARY_TEMPLATES).sort());
  });

  it('name the actor, the action and the target', () => {
    expect(summarize(event('updateMemberRole', 'Eli', { role: 'MEMBER' }, { role: 'ADMIN' }))).toBe(
      "Dana changed Eli's role from MEMBER to ADMIN",
    );
    expect(
      summarize({
        actor: { type: 'system', displayName: 'system' },
        action: BUDGET_THRESHOLD,
        target: { type: 'budget', id: 'b1', label: 'Monthly cap' },
        changes: { before: null, after: { threshold: 80 } },
      }),
    ).toBe('system: budget Monthly cap reached 80 %');
  });

  it('speak of a target with no stored name by its kind', () => {
    expect(summarize(event('revokeMember', null, { role: 'MEMBER' }, null))).toBe('Dana removed a member');
    expect(summarize({ ...event('createTeam', null), target: { type: 'team', id: 't', label: null } })).toBe(
      'Dana created a team',
    );
  });

  it('still read for an action without a template, naming it as stored', () => {
    expect(summarize(event('hub.some.thing', 'Eli'))).toBe('Dana ran hub some thing on Eli');
  });
});
