import { screen, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import type { Schemas } from '../../../lib/api-client';
import { errorBody, ORG_SLUG, renderInOrg } from '../../../test/render';
import { server } from '../../../test/server';
import { DomainsSection } from './domains-section';

type Domain = Schemas['Domain'];

const pending = (name: string): Domain => ({
  id: `d-${name}`,
  domain: name,
  status: 'pending',
  verification: { type: 'dns-txt', name: `_hub-verification.${name}`, value: `hub-verification=token-of-${name}` },
  verifiedAt: null,
  enforceSso: null,
  createdAt: '2026-12-01T09:00:00.000Z',
});

/** The domains API as the server answers it; `refuse` names the answer of each refused operation. */
function domainsServer(
  initial: Domain[],
  refuse: { add?: [number, string, string]; verify?: [number, string, string] },
) {
  let domains = initial;
  server.use(
    http.get(`/api/org/${ORG_SLUG}/settings`, () =>
      HttpResponse.json({ membersCanCreateProjects: false, autoJoin: null }),
    ),
    http.get(`/api/org/${ORG_SLUG}/domains`, () => HttpResponse.json({ domains, nextCursor: null })),
    http.get(`/api/org/${ORG_SLUG}/identity-providers`, () =>
      HttpResponse.json({ identityProviders: [], nextCursor: null }),
    ),
    http.post(`/api/org/${ORG_SLUG}/domains`, async ({ request }) => {
      const { domain } = (await request.json()) as { domain: string };
      if (refuse.add) return HttpResponse.json(errorBody(refuse.add[1], refuse.add[2]), { status: refuse.add[0] });
      const added = pending(domain);
      domains = [...domains, added];
      return HttpResponse.json(added, { status: 201 });
    }),
    http.post(`/api/org/${ORG_SLUG}/domains/:id/verify`, () =>
      refuse.verify
        ? HttpResponse.json(errorBody(refuse.verify[1], refuse.verify[2]), { status: refuse.verify[0] })
        : HttpResponse.json({}),
    ),
    http.delete(`/api/org/${ORG_SLUG}/domains/:id`, () =>
      HttpResponse.json(errorBody('domain_in_use', 'The automatic-membership rule names example.com.'), {
        status: 409,
      }),
    ),
  );
}

describe('DomainsSection', () => {
  it('says what domains are for when there is none, and shows the record of one added', async () => {
    domainsServer([], {});
    const { user } = renderInOrg(<DomainsSection />, { role: 'ADMIN' });
    expect(await screen.findByText(/No domains yet/)).toBeInTheDocument();
    await user.type(screen.getByRole('textbox', { name: 'Domain' }), 'acme.example');
    await user.click(screen.getByRole('button', { name: 'Add domain' }));
    const table = await screen.findByRole('table', { name: 'Domains' });
    expect(within(table).getByText('_hub-verification.acme.example')).toBeInTheDocument();
    expect(within(table).getByText('hub-verification=token-of-acme.example')).toBeInTheDocument();
    expect(within(table).getByRole('button', { name: 'Copy the record name of acme.example' })).toBeInTheDocument();
    expect(within(table).getByRole('button', { name: 'Copy the record value of acme.example' })).toBeInTheDocument();
    expect(within(table).getByText('pending')).toBeInTheDocument();
  });

  it('shows the server’s words when adding or verifying is refused, and when deleting is', async () => {
    const verifyMessage = 'DNS has no TXT record at _hub-verification.example.com.';
    domainsServer([pending('example.com')], {
      add: [400, 'validation_failed', '"localhost" is not a domain name such as example.com.'],
      verify: [422, 'domain_verification_failed', verifyMessage],
    });
    const { user } = renderInOrg(<DomainsSection />, { role: 'ADMIN' });
    await user.type(await screen.findByRole('textbox', { name: 'Domain' }), 'localhost');
    await user.click(screen.getByRole('button', { name: 'Add domain' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('"localhost" is not a domain name');

    await user.click(screen.getByRole('button', { name: 'Verify example.com' }));
    const refused = await screen.findByText(verifyMessage);
    expect(refused.closest('[role="alert"]')).toHaveTextContent('Not verified');

    await user.click(screen.getByRole('button', { name: 'Delete example.com' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete “example.com”?' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete domain' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('automatic-membership rule names example.com');
  });

  it('shows a MEMBER the domains without the actions', async () => {
    domainsServer([pending('example.com')], {});
    renderInOrg(<DomainsSection />, { role: 'MEMBER' });
    expect(await screen.findByText('example.com')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Add domain' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Verify example.com' })).not.toBeInTheDocument();
  });
});
