import { describe, expect, it } from 'vitest';
import { errorCode, errorMessage } from './api-client';
import { assignableRoles, canHandleOwners, homePath, isOrgAdmin } from './authorization';

describe('roles', () => {
  it('lets only an OWNER hand out or take away OWNER', () => {
    expect(assignableRoles('OWNER')).toEqual(['OWNER', 'ADMIN', 'MEMBER']);
    expect(assignableRoles('ADMIN')).toEqual(['ADMIN', 'MEMBER']);
    expect(canHandleOwners('ADMIN')).toBe(false);
  });

  it('starts admins at Members and a MEMBER at My projects', () => {
    expect(isOrgAdmin('MEMBER')).toBe(false);
    expect(homePath({ slug: 'acme', role: 'ADMIN' })).toBe('/o/acme/members');
    expect(homePath({ slug: 'acme', role: 'MEMBER' })).toBe('/o/acme/my-projects');
  });
});

describe('errors', () => {
  it('shows the server’s message and keeps its code', () => {
    const body = { error: { code: 'last_owner', message: 'The last active OWNER cannot be demoted.' } };
    expect(errorCode(body)).toBe('last_owner');
    expect(errorMessage(body)).toBe('The last active OWNER cannot be demoted.');
  });

  it('falls back to the browser’s message when the server never answered', () => {
    expect(errorCode(new TypeError('Failed to fetch'))).toBeUndefined();
    expect(errorMessage(new TypeError('Failed to fetch'))).toBe('Failed to fetch');
  });
});
