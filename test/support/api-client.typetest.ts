// Compiled by `tsc --noEmit`, never run: the typed test client takes the contract's inputs and
// types bodies as the success body or the error envelope until a test narrows them.
import type { ApiResult, CallArgs, OrgCallArgs } from './api-client.js';
import { errorBody, expectOk } from './assertions.js';

/** Each @ts-expect-error must stay an error for `tsc --noEmit` to pass. */
export function typeChecks(res: ApiResult<'listTeams'>, created: ApiResult<'createTeam'>): void {
  const inputs: Array<CallArgs<'listTeams'> | CallArgs<'createTeam'> | OrgCallArgs<'updateTeam'>> = [
    [{ path: { orgSlug: 'acme' } }],
    [{ path: { orgSlug: 'acme' }, body: { slug: 'core', name: 'Core' } }],
    [{ path: { teamId: 't1' }, body: { name: 'Renamed' } }],
  ];
  // @ts-expect-error createTeam needs its body
  const noBody: CallArgs<'createTeam'> = [{ path: { orgSlug: 'acme' } }];
  // @ts-expect-error a body's fields have the contract's types
  const badBody: CallArgs<'createTeam'> = [{ path: { orgSlug: 'acme' }, body: { slug: 'core', name: 7 } }];
  // @ts-expect-error the organization's calls fill in orgSlug themselves
  const orgSlug: OrgCallArgs<'updateTeam'> = [{ path: { teamId: 't1', orgSlug: 'other' }, body: {} }];
  // @ts-expect-error the body is the success body or the error envelope until narrowed
  void res.body.teams;
  expectOk(res);
  const slugs: string[] = res.body.teams.map((team) => team.slug);
  const code: string = errorBody(created).error.code;
  void [inputs, noBody, badBody, orgSlug, slugs, code];
}
