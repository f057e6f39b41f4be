// The typed test client's own checks: how it builds URLs from openapi.yaml, and (compiled by
// `tsc --noEmit`) that its inputs and bodies are the contract's types.
import { describe, expect, it } from 'vitest';
import { listOperations } from '../../src/http/openapi-document.js';
import { fillPath, operationRequest, queryString, type ApiResult, type CallArgs, type OrgCallArgs } from './api-client.js';
import { errorBody, expectOk } from './assertions.js';

describe('the typed test client', () => {
  it('knows every operation of openapi.yaml by its method and path template', () => {
    for (const { operationId, method, path } of listOperations()) {
      const names = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
      const params = Object.fromEntries(names.map((name) => [name, `{${name}}`]));
      const request = operationRequest(operationId as Parameters<typeof operationRequest>[0], { path: params });
      expect(request.method, operationId).toBe(method.toUpperCase());
      expect(decodeURIComponent(request.url), operationId).toBe(path);
    }
  });

  it('percent-encodes path parameters and refuses a missing one', () => {
    expect(fillPath('/api/org/{orgSlug}/agent-skills/{name}', { orgSlug: 'acme', name: 'a b/c?d' })).toBe(
      '/api/org/acme/agent-skills/a%20b%2Fc%3Fd',
    );
    expect(() => fillPath('/api/org/{orgSlug}/teams/{teamId}', { orgSlug: 'acme' })).toThrow(/teamId/);
  });

  it('serializes the defined query values, repeating arrays, and leaves out the rest', () => {
    expect(queryString({ from: '2026-01-01T00:00:00+00:00', to: undefined, limit: 10 })).toBe(
      '?from=2026-01-01T00%3A00%3A00%2B00%3A00&limit=10',
    );
    expect(queryString({ tag: ['a', 'b'] })).toBe('?tag=a&tag=b');
    expect(queryString({})).toBe('');
    expect(operationRequest('getUsageReport', { path: { orgSlug: 'acme' }, query: { folderId: 'f 1' } })).toEqual({
      method: 'GET',
      url: '/api/org/acme/usage?folderId=f+1',
    });
  });
});

/** Type checks only: each @ts-expect-error must stay an error for `tsc --noEmit` to pass. */
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
