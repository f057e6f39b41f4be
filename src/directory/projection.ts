import type { Schema } from '../api/types.js';
import type { IdentityProvider } from '../identity/provider-store.js';
import { projection } from '../shared/projection.js';

/** An organization's provider with the redirect URI its admins register at the provider. */
export type ListedProvider = IdentityProvider & { redirectUri: string };

/** An organization's identity provider as the API shows it: never its secret. By id. */
export const orgProviderProjection = projection<ListedProvider, Schema<'OrgIdentityProvider'>>()({
  fields: {
    id: 'id',
    kind: 'kind',
    label: 'label',
    issuer: { from: (p) => (p.kind === 'oidc' ? p.endpoint : null) },
    baseUrl: { from: (p) => (p.kind === 'lark' ? p.endpoint : null) },
    clientId: 'clientId',
    subjectClaim: 'subjectClaim',
    tokenAuth: 'tokenAuth',
    allowedTenants: { from: (p) => p.allowedTenants },
    emailDomains: { from: (p) => p.allowedEmailDomains },
    groupsClaim: 'groupsClaim',
    mappings: { from: (p) => p.mappings },
    defaultRole: 'defaultRole',
    requireGroup: 'requireGroup',
    status: { from: (p) => (p.disabledAt === null ? ('enabled' as const) : ('disabled' as const)) },
    redirectUri: 'redirectUri',
    createdAt: 'createdAt',
    updatedAt: 'updatedAt',
  },
  order: [{ column: 'id', by: 'codeUnits' }],
});
