// Type tests of the client's methods. Checked by the root type-check and by types.test.ts,
// which also compiles this file once more with every type marked `typetest:` made `any` to
// show that every `@ts-expect-error` below is caught by the types and not by accident.
import { assertType, expectTypeOf } from 'vitest';
import type { Client as RawClient } from 'openapi-fetch';
import type { components, operations, paths } from '../../generated/openapi.js';
import type { OrgAdminClientOptions } from '../../sdk/src/client.js';
import type { ApiError } from '../../sdk/src/errors.js';
import type { TestApiError, TestApiErrorCode, TestClient } from './support/client.js';

type Schemas = components['schemas'];
type Client = TestClient; // typetest:client
type Options = OrgAdminClientOptions; // typetest:options
type CodedError = TestApiError; // typetest:error
type CodedErrorClass = typeof TestApiError; // typetest:error-class
declare const c: Client;
declare const error: ApiError;
declare const codedError: CodedError;
declare const CodedErrorClass: CodedErrorClass;
declare const thrown: unknown;

export async function typeTests() {
  // One method per operation, plus raw and paginate.
  expectTypeOf<Exclude<keyof Client, 'raw' | 'paginate'>>().toEqualTypeOf<keyof operations>();
  expectTypeOf(c.raw).toEqualTypeOf<RawClient<paths>>();

  // Results are the operations' success bodies.
  expectTypeOf(await c.getMe()).toEqualTypeOf<Schemas['MeResponse']>();
  expectTypeOf(await c.getProject({ projectId: 'p1' })).toEqualTypeOf<Schemas['ProjectDetail']>();
  expectTypeOf(await c.addMember({ body: { imOpenId: 'ou_1', role: 'ADMIN' } })).toEqualTypeOf<Schemas['OrgMember']>();
  expectTypeOf(await c.listProjectSessions({ projectId: 'p1', query: { limit: 10 } })).toEqualTypeOf<
    Schemas['SessionList']
  >();
  expectTypeOf(await c.getChatApplicationConnection()).toEqualTypeOf<Schemas['ChatApplicationConnectionResponse']>();
  expectTypeOf(await c.logout()).toEqualTypeOf<undefined>();
  expectTypeOf(await c.login({ query: { token: 't' } })).toEqualTypeOf<undefined>();
  assertType<Promise<Schemas['TeamRow']>>(c.createTeam({ body: { slug: 'platform', name: 'Platform' } }));

  // Arguments: path parameters by name, query and body when the operation has them.
  expectTypeOf(c.getProject).parameter(0).toEqualTypeOf<{ projectId: string }>();
  expectTypeOf(c.revokeTeamMember).parameter(0).toEqualTypeOf<{ teamId: string; userId: string }>();
  expectTypeOf(c.putAgentRole).parameter(0).toEqualTypeOf<{ roleId: string; body: Schemas['PutAgentRoleRequest'] }>();
  expectTypeOf(c.getUsageReport).parameter(0).toEqualTypeOf<
    | {
        query?: {
          from?: string;
          to?: string;
          folderId?: string;
          groupBy?: Schemas['UsageReportGroupBy'];
          memberId?: string;
          format?: 'json' | 'csv';
        };
      }
    | undefined
  >();
  expectTypeOf(
    await c.getUsageSeries({ query: { from: '2026-11-01T00:00:00Z', to: '2026-12-01T00:00:00Z', bucket: 'week' } }),
  ).toEqualTypeOf<Schemas['UsageSeries']>();
  // @ts-expect-error the series needs its window
  assertType(c.getUsageSeries({ query: { bucket: 'day' } }));
  assertType(c.getUsageReport({ query: { from: '', folderId: 'f1' } }));
  assertType(c.updateCapacityPolicy({ body: { limits: { memberCount: 500, fileSize: null } } }));
  assertType(c.putProjectTeamAccess({ projectId: 'p1', body: { teamSlug: 'platform', role: 'MANAGE' } }));
  assertType(c.getMe(undefined, { signal: new AbortController().signal, headers: { 'x-trace': '1' } }));

  // Wrong or missing path parameters.
  // @ts-expect-error projectID is not a parameter of getProject
  assertType(c.getProject({ projectID: 'p1' }));
  // @ts-expect-error projectId is required
  assertType(c.getProject({}));
  // @ts-expect-error the argument is required
  assertType(c.getProject());
  // @ts-expect-error path parameters are strings
  assertType(c.getProject({ projectId: 42 }));
  // @ts-expect-error orgSlug is bound by the client, not passed per call
  assertType(c.getProject({ projectId: 'p1', orgSlug: 'acme' }));
  // @ts-expect-error revokeTeamMember needs userId too
  assertType(c.revokeTeamMember({ teamId: 't1' }));

  // Wrong enum values.
  // @ts-expect-error GOD is not an OrgRole
  assertType(c.addMember({ body: { imOpenId: 'ou_1', role: 'GOD' } }));
  // @ts-expect-error WRITE is not a GrantRole
  assertType(c.putProjectTeamAccess({ projectId: 'p1', body: { teamId: 't1', role: 'WRITE' } }));
  // @ts-expect-error seats is not a CapacityDimension
  assertType(c.updateCapacityPolicy({ body: { limits: { seats: 10 } } }));
  // @ts-expect-error role is an enum, not any string
  assertType(c.updateMemberRole({ userId: 'u1', body: { role: 'owner' } }));

  // Missing or misplaced bodies and queries.
  // @ts-expect-error addMember needs a body
  assertType(c.addMember({}));
  // @ts-expect-error addMember needs its argument
  assertType(c.addMember());
  // @ts-expect-error the body needs imOpenId
  assertType(c.addMember({ body: { role: 'MEMBER' } }));
  // @ts-expect-error updateOrgSettings needs a body
  assertType(c.updateOrgSettings());
  // @ts-expect-error getMe takes no body
  assertType(c.getMe({ body: {} }));
  // @ts-expect-error getProject takes no query
  assertType(c.getProject({ projectId: 'p1', query: { limit: 1 } }));
  // @ts-expect-error limit is a number
  assertType(c.listProjectSessions({ projectId: 'p1', query: { limit: '10' } }));
  // @ts-expect-error login needs its token
  assertType(c.login({ query: {} }));
  // @ts-expect-error login needs its argument
  assertType(c.login());

  // No method without an operation; results are not any.
  // @ts-expect-error there is no such operation
  assertType(c.dropOrganization());
  // @ts-expect-error MeResponse has no field "users"
  assertType((await c.getMe()).users);
  const replacement = c.getMe;
  // @ts-expect-error methods are read-only
  c.getMe = replacement;

  // ApiError is typed; as the package exports it, `code` is the contract's ErrorCode or http_error.
  expectTypeOf(error.status).toEqualTypeOf<number>();
  expectTypeOf(error.code).toEqualTypeOf<string>();
  expectTypeOf(error.body).toEqualTypeOf<unknown>();
  expectTypeOf(error.headers).toEqualTypeOf<Headers>();
  expectTypeOf(codedError.code).toEqualTypeOf<Schemas['ErrorCode'] | 'http_error'>();
  expectTypeOf<TestApiErrorCode>().toExtend<string>();
  if (codedError.code === 'last_owner') expectTypeOf(codedError.code).toEqualTypeOf<'last_owner'>();
  // @ts-expect-error a misspelt code is no code of the contract
  assertType(codedError.code === 'last_ownr');
  // @ts-expect-error a code of no error at all
  assertType(codedError.code === 'not_a_code');
  if (thrown instanceof CodedErrorClass) {
    expectTypeOf(thrown.code).toEqualTypeOf<Schemas['ErrorCode'] | 'http_error'>();
    if (thrown.code === 'token_scope_required') expectTypeOf(thrown.code).toEqualTypeOf<'token_scope_required'>();
  }
  assertType(new CodedErrorClass({ status: 404, code: 'project_not_found', message: 'x', body: undefined }));
  // @ts-expect-error new takes only the contract's codes
  assertType(new CodedErrorClass({ status: 404, code: 'project_missing', message: 'x', body: undefined }));

  // Client options: an API token, and the 429 retry.
  expectTypeOf<Options['token']>().toEqualTypeOf<string | undefined>();
  assertType<Options>({ baseUrl: 'https://hub.example', orgSlug: 'acme', token: 'hubt_x' });
  assertType<Options>({ baseUrl: 'https://hub.example', orgSlug: 'acme', token: 'hubt_x', headers: { 'x-a': '1' } });
  assertType<Options>({ baseUrl: 'https://hub.example', orgSlug: 'acme', retry: false });
  assertType<Options>({ baseUrl: 'https://hub.example', orgSlug: 'acme', retry: { maxRetries: 0 } });
  assertType<Options>({
    baseUrl: 'https://hub.example',
    orgSlug: 'acme',
    retry: { maxRetries: 5, maxWaitMs: 5_000, sleep: async (_ms: number, _signal: AbortSignal | undefined) => {} },
  });
  // @ts-expect-error the token is a string
  assertType<Options>({ baseUrl: 'https://hub.example', orgSlug: 'acme', token: 42 });
  // @ts-expect-error the token option is named token
  assertType<Options>({ baseUrl: 'https://hub.example', orgSlug: 'acme', apiToken: 'hubt_x' });
  // @ts-expect-error maxRetries is a number
  assertType<Options>({ baseUrl: 'https://hub.example', orgSlug: 'acme', retry: { maxRetries: '2' } });

  // paginate: the items of every page of a paged list, typed by the list beside nextCursor.
  for await (const member of c.paginate(c.listMembers)) expectTypeOf(member).toEqualTypeOf<Schemas['OrgMember']>();
  expectTypeOf(c.paginate(c.listTeams, { query: { limit: 50 } })).toEqualTypeOf<AsyncIterable<Schemas['TeamRow']>>();
  expectTypeOf(c.paginate(c.listTeamMembers, { teamId: 't1' })).toEqualTypeOf<
    AsyncIterable<Schemas['TeamMemberRow']>
  >();
  expectTypeOf(c.paginate(c.listProjectSessions, { projectId: 'p1' })).toEqualTypeOf<
    AsyncIterable<Schemas['SessionSummary']>
  >();
  expectTypeOf(c.paginate(c.getProjectAccess, { projectId: 'p1', query: { limit: 100 } })).toEqualTypeOf<
    AsyncIterable<Schemas['ProjectAccessEntry']>
  >();
  expectTypeOf(c.paginate(c.listTeamProjects, { teamId: 't1' })).toEqualTypeOf<
    AsyncIterable<Schemas['TeamProjectEntry']>
  >();
  expectTypeOf(c.paginate(c.listAgentRoles)).toEqualTypeOf<AsyncIterable<Schemas['AgentRoleRow']>>();
  expectTypeOf(c.paginate(c.listAgentSkills)).toEqualTypeOf<AsyncIterable<Schemas['AgentSkillRow']>>();
  expectTypeOf(c.paginate(c.listApiTokens)).toEqualTypeOf<AsyncIterable<Schemas['ApiToken']>>();
  expectTypeOf(
    c.paginate(c.listAuditEvents, { query: { action: 'addMember', limit: 500 } }, { signal: AbortSignal.timeout(1) }),
  ).toEqualTypeOf<AsyncIterable<Schemas['AuditEvent']>>();
  // @ts-expect-error getMe answers no page (its result has no nextCursor)
  assertType(c.paginate(c.getMe));
  // @ts-expect-error listProviderConnections is not paged
  assertType(c.paginate(c.listProviderConnections));
  // @ts-expect-error listTeamMembers needs its teamId
  assertType(c.paginate(c.listTeamMembers));
  // @ts-expect-error the arguments are the method's own: no orgSlug
  assertType(c.paginate(c.listMembers, { orgSlug: 'other' }));
  // @ts-expect-error limit is a number
  assertType(c.paginate(c.listMembers, { query: { limit: '10' } }));
  // @ts-expect-error the items are audit events, not members
  for await (const event of c.paginate(c.listAuditEvents)) assertType<Schemas['OrgMember']>(event);
}
