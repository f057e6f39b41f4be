import { screen, waitFor } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import type { Schemas } from '../../../lib/api-client';
import { errorBody, ORG_SLUG, renderInOrg } from '../../../test/render';
import { server } from '../../../test/server';
import { AutoJoinForm } from './auto-join-form';

type Settings = Schemas['OrgSettings'];

const domain = (name: string, status: 'pending' | 'verified'): Schemas['Domain'] => ({
  id: `d-${name}`,
  domain: name,
  status,
  verification: { type: 'dns-txt', name: `_hub-verification.${name}`, value: 'hub-verification=t' },
  verifiedAt: status === 'verified' ? '2026-12-01T10:00:00.000Z' : null,
  enforceSso: null,
  createdAt: '2026-12-01T09:00:00.000Z',
});

function settingsServer(initial: Settings, refuse?: { code: string; message: string }) {
  let settings = initial;
  const sent: unknown[] = [];
  server.use(
    http.get('/auth/providers', () =>
      HttpResponse.json({ providers: [{ id: 'corp', label: 'Corp SSO', kind: 'oidc' }] }),
    ),
    http.get(`/api/org/${ORG_SLUG}/domains`, () =>
      HttpResponse.json({
        domains: [domain('example.com', 'verified'), domain('pending.example', 'pending')],
        nextCursor: null,
      }),
    ),
    http.get(`/api/org/${ORG_SLUG}/settings`, () => HttpResponse.json(settings)),
    http.patch(`/api/org/${ORG_SLUG}/settings`, async ({ request }) => {
      const body = (await request.json()) as Schemas['UpdateOrgSettingsRequest'];
      sent.push(body);
      if (refuse) return HttpResponse.json(errorBody(refuse.code, refuse.message), { status: 400 });
      settings = {
        ...settings,
        autoJoin: body.autoJoin ? { emailDomains: [], tenantKeys: [], ...body.autoJoin, disabledReason: null } : null,
      };
      return HttpResponse.json(settings);
    }),
  );
  return { sent };
}

const DEFAULT_TOKENS = {
  personalAllowed: true,
  requireExpiry: false,
  maxLifetimeDays: null,
  revokeUnusedAfterDays: null,
};

describe('AutoJoinForm', () => {
  it('is off by default; turned on with a provider, a verified domain and tenant keys, it is saved', async () => {
    const { sent } = settingsServer({ membersCanCreateProjects: false, autoJoin: null, tokens: DEFAULT_TOKENS });
    const { user } = renderInOrg(<AutoJoinForm />, { role: 'ADMIN' });
    const toggle = await screen.findByRole('switch', { name: /Let people join as MEMBER/ });
    await waitFor(() => expect(toggle).toBeEnabled());
    expect(toggle).not.toBeChecked();
    await user.click(toggle);
    await user.click(screen.getByRole('combobox', { name: 'Identity provider' }));
    await user.click(await screen.findByRole('option', { name: 'Corp SSO' }));
    await user.click(screen.getByRole('combobox', { name: 'Email domains' }));
    // Only verified domains are offered; a pending one is not.
    await user.click(await screen.findByRole('option', { name: 'example.com' }));
    expect(screen.queryByRole('option', { name: /pending\.example/ })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Domains' })).toHaveAttribute('href', '#domains');
    await user.type(screen.getByRole('combobox', { name: 'Tenant keys' }), 't-1{enter}');
    await user.click(screen.getByRole('button', { name: 'Save automatic membership' }));
    expect(await screen.findByText('Automatic membership saved')).toBeInTheDocument();
    expect(sent).toEqual([
      { autoJoin: { providerId: 'corp', emailDomains: ['example.com'], tenantKeys: ['t-1'], role: 'MEMBER' } },
    ]);
  });

  it('shows a switched-off rule with its reason, and the server’s message when a change is refused', async () => {
    const message = 'old.example is not a verified domain of this organization.';
    const reason = 'Switched off: old.example is not verified for this organization.';
    settingsServer(
      {
        membersCanCreateProjects: false,
        tokens: DEFAULT_TOKENS,
        autoJoin: {
          providerId: 'corp',
          emailDomains: ['old.example'],
          tenantKeys: [],
          role: 'MEMBER',
          disabledReason: { code: 'domain_not_verified', message: reason, domains: ['old.example'] },
        },
      },
      { code: 'domain_not_verified', message },
    );
    const { user } = renderInOrg(<AutoJoinForm />, { role: 'ADMIN' });
    expect(await screen.findByRole('status')).toHaveTextContent(reason);
    expect(screen.getByRole('switch', { name: /Let people join as MEMBER/ })).toBeChecked();
    await user.type(screen.getByRole('combobox', { name: 'Tenant keys' }), 't-2{enter}');
    await user.click(screen.getByRole('button', { name: 'Save automatic membership' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(message);
  });
});
