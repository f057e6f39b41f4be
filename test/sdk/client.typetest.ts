// Type tests of the client's methods. Checked by the root type-check and by types.test.ts,
// which also compiles this file once more with `Client` made `any` to show that every
// `@ts-expect-error` below is caught by the types and not by accident.
import { assertType, expectTypeOf } from 'vitest';
import type { Client as RawClient } from 'openapi-fetch';
import type { components, operations, paths } from '../../generated/openapi.js';
import type { ApiError } from '../../sdk/src/errors.js';
import type { TestClient } from './support/client.js';

type Schemas = components['schemas'];
type Client = TestClient; // typetest:client
declare const c: Client;
declare const error: ApiError;

export async function typeTests() {
  // One method per operation, plus raw.
  expectTypeOf<Exclude<keyof Client, 'raw'>>().toEqualTypeOf<keyof operations>();
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
  expectTypeOf(c.getUsageReport)
    .parameter(0)
    .toEqualTypeOf<{ query?: { from?: string; to?: string; folderId?: string } } | undefined>();
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
  assertType(c.deleteOrganization());
  // @ts-expect-error MeResponse has no field "users"
  assertType((await c.getMe()).users);
  const replacement = c.getMe;
  // @ts-expect-error methods are read-only
  c.getMe = replacement;

  // ApiError is typed.
  expectTypeOf(error.status).toEqualTypeOf<number>();
  expectTypeOf(error.code).toEqualTypeOf<string>();
  expectTypeOf(error.body).toEqualTypeOf<unknown>();
  expectTypeOf(error.headers).toEqualTypeOf<Headers>();
}
