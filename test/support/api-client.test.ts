// The typed test client's own checks: how it builds URLs from openapi.yaml (its types are checked
// by api-client.typetest.ts).
import { describe, expect, it } from 'vitest';
import { listOperations } from '../../src/http/openapi-document.js';
import { fillPath, operationRequest, queryString } from './api-client.js';

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
