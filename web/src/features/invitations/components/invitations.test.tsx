import { screen, waitFor, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { Route, Routes } from 'react-router';
import { describe, expect, it } from 'vitest';
import type { Schemas } from '../../../lib/api-client';
import { errorBody, ORG_SLUG, renderInOrg, signedIn } from '../../../test/render';
import { gate, server } from '../../../test/server';
import { InviteButton } from './invite-dialog';
import { InvitationsList } from './invitations-list';
import { InvitationAcceptance, InvitationSignIn } from './invitation-page';
import { MyInvitations } from './my-invitations';

type Invitation = Schemas['Invitation'];

const LINK = 'http://hub.test/invite/AbCdEfGhIjKlMnOpQrStUvWxYz0123456789_-abcde';
const invitation = (id: string, status: Invitation['status'], extra: Partial<Invitation> = {}): Invitation => ({
  id,
  role: 'MEMBER',
  teamIds: [],
  email: null,
  status,
  createdBy: { id: 'u-olga', displayName: 'Olga Owner' },
  createdAt: '2026-01-05T10:00:00.000Z',
  expiresAt: '2026-01-12T10:00:00.000Z',
  acceptedBy: null,
  acceptedAt: null,
  ...extra,
});

describe('InviteButton', () => {
  it('creates an invitation with role, teams, email and expiry, then shows the link once', {
    timeout: 30_000,
  }, async () => {
    const sent: unknown[] = [];
    const slow = gate();
    server.use(
      http.get(`/api/org/${ORG_SLUG}/teams`, () =>
        HttpResponse.json({
          teams: [{ id: 't-eng', slug: 'eng', name: 'Engineering', description: null, memberCount: 2, createdAt: '' }],
          nextCursor: null,
        }),
      ),
      http.post(`/api/org/${ORG_SLUG}/invitations`, async ({ request }) => {
        sent.push(await request.json());
        await slow.opened;
        return HttpResponse.json({ ...invitation('i-1', 'pending'), url: LINK }, { status: 201 });
      }),
    );
    const { user } = renderInOrg(<InviteButton />, { role: 'OWNER' });
    await user.click(screen.getByRole('button', { name: 'Invite' }));
    const dialog = screen.getByRole('dialog', { name: 'Invite someone' });
    await user.click(within(dialog).getByRole('combobox', { name: 'Role' }));
    await user.click(await screen.findByRole('option', { name: 'ADMIN' }));
    await user.click(within(dialog).getByRole('combobox', { name: 'Teams' }));
    await user.click(await screen.findByRole('option', { name: 'Engineering' }));
    await user.type(within(dialog).getByRole('textbox', { name: /Email/ }), 'ada@example.com');
    const days = within(dialog).getByRole('textbox', { name: 'Expires after (days)' });
    await user.clear(days);
    await user.type(days, '14');
    await user.click(within(dialog).getByRole('button', { name: 'Create link' }));

    await waitFor(() => expect(within(dialog).getByRole('button', { name: 'Create link' })).toBeDisabled());
    slow.open();
    const shown = await screen.findByRole('dialog', { name: 'Invitation link' });
    expect(within(shown).getByTestId('invitation-link')).toHaveTextContent(LINK);
    expect(within(shown).getByText(/You will not see this link again/)).toBeInTheDocument();
    expect(within(shown).getByRole('button', { name: 'Copy link' })).toBeInTheDocument();
    expect(sent).toEqual([{ role: 'ADMIN', teamIds: ['t-eng'], email: 'ada@example.com', expiresInDays: 14 }]);

    // Closed, the link is gone; the next invitation starts afresh.
    await user.click(within(shown).getByRole('button', { name: 'Done' }));
    expect(screen.queryByText(LINK)).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Invite' }));
    expect(screen.getByRole('dialog', { name: 'Invite someone' })).toBeInTheDocument();
  });

  it('keeps the dialog open with the server’s message when it refuses', async () => {
    server.use(
      http.get(`/api/org/${ORG_SLUG}/teams`, () => HttpResponse.json({ teams: [], nextCursor: null })),
      http.post(`/api/org/${ORG_SLUG}/invitations`, () =>
        HttpResponse.json(errorBody('owner_required', 'Only an OWNER may invite with the OWNER role.'), {
          status: 403,
        }),
      ),
    );
    const { user } = renderInOrg(<InviteButton />, { role: 'ADMIN' });
    await user.click(screen.getByRole('button', { name: 'Invite' }));
    const dialog = screen.getByRole('dialog', { name: 'Invite someone' });
    await user.click(within(dialog).getByRole('button', { name: 'Create link' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Only an OWNER may invite with the OWNER role.');
  });

  it('refuses a missing expiry before sending (the field keeps a typed number within 1 to 30)', async () => {
    server.use(http.get(`/api/org/${ORG_SLUG}/teams`, () => HttpResponse.json({ teams: [], nextCursor: null })));
    const { user } = renderInOrg(<InviteButton />, { role: 'ADMIN' });
    await user.click(screen.getByRole('button', { name: 'Invite' }));
    const dialog = screen.getByRole('dialog', { name: 'Invite someone' });
    const days = within(dialog).getByRole('textbox', { name: 'Expires after (days)' });
    await user.clear(days);
    await user.click(within(dialog).getByRole('button', { name: 'Create link' }));
    expect(await within(dialog).findByText('From 1 to 30 days')).toBeInTheDocument();
  });
});

describe('InvitationsList', () => {
  it('lists pending invitations, filters by status, pages, and revokes after confirming', async () => {
    const queries: string[] = [];
    let revoked = false;
    server.use(
      http.get(`/api/org/${ORG_SLUG}/invitations`, ({ request }) => {
        const url = new URL(request.url);
        queries.push(url.search);
        if (url.searchParams.get('status') === 'expired')
          return HttpResponse.json({ invitations: [invitation('i-old', 'expired')], nextCursor: null });
        if (url.searchParams.get('cursor'))
          return HttpResponse.json({ invitations: [invitation('i-2', 'pending')], nextCursor: null });
        const first = invitation('i-1', revoked ? 'revoked' : 'pending', { email: 'ada@example.com' });
        return HttpResponse.json({ invitations: revoked ? [] : [first], nextCursor: revoked ? null : 'c1' });
      }),
      http.post(`/api/org/${ORG_SLUG}/invitations/i-1/revoke`, () => {
        revoked = true;
        return HttpResponse.json(invitation('i-1', 'revoked', { email: 'ada@example.com' }));
      }),
    );
    const { user } = renderInOrg(<InvitationsList />, { role: 'ADMIN' });
    const table = await screen.findByRole('table', { name: 'Pending invitations' });
    expect(within(table).getByText('ada@example.com')).toBeInTheDocument();
    expect(within(table).getByText('pending')).toBeInTheDocument();
    expect(within(table).getByText('Olga Owner')).toBeInTheDocument();
    expect(queries[0]).toContain('status=pending');

    await user.click(screen.getByRole('button', { name: 'Load more invitations' }));
    expect(await screen.findByText('Anyone with the link')).toBeInTheDocument();
    expect(queries.some((q) => q.includes('cursor=c1'))).toBe(true);

    await user.click(screen.getByRole('button', { name: 'Revoke the invitation for ada@example.com' }));
    const dialog = screen.getByRole('dialog', { name: 'Revoke this invitation?' });
    await user.click(within(dialog).getByRole('button', { name: 'Revoke invitation' }));
    expect(await screen.findByText('Invitation revoked')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByText('ada@example.com')).not.toBeInTheDocument());

    await user.click(screen.getByText('Expired'));
    expect(await screen.findByText('expired')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Revoke/ })).not.toBeInTheDocument();
  });

  it('shows a refused revoke’s message in the dialog', async () => {
    server.use(
      http.get(`/api/org/${ORG_SLUG}/invitations`, () =>
        HttpResponse.json({ invitations: [invitation('i-1', 'pending')], nextCursor: null }),
      ),
      http.post(`/api/org/${ORG_SLUG}/invitations/i-1/revoke`, () =>
        HttpResponse.json(errorBody('invitation_not_pending', 'Only a pending invitation can be revoked.'), {
          status: 409,
        }),
      ),
    );
    const { user } = renderInOrg(<InvitationsList />, { role: 'ADMIN' });
    await user.click(await screen.findByRole('button', { name: 'Revoke the invitation for the MEMBER link' }));
    const dialog = screen.getByRole('dialog', { name: 'Revoke this invitation?' });
    await user.click(within(dialog).getByRole('button', { name: 'Revoke invitation' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Only a pending invitation can be revoked.');
  });
});

const TOKEN = 'tok';
const PREVIEW: Schemas['InvitationPreview'] = {
  organization: { slug: 'globex', name: 'Globex' },
  role: 'ADMIN',
  invitedBy: { displayName: 'Olga Owner' },
  expiresAt: '2026-01-12T10:00:00.000Z',
  teams: [
    { id: 't-1', slug: 'platform', name: 'Platform' },
    { id: 't-2', slug: 'design', name: 'Design' },
  ],
  status: 'pending',
};

/** The invitation page at /invite/tok, and where accepting lands. */
function renderInvitation() {
  const { me } = signedIn('MEMBER');
  return renderInOrg(
    <Routes>
      <Route path="/invite/:token" element={<InvitationAcceptance token={TOKEN} path="/invite/tok" me={me} />} />
      <Route path="/o/:orgSlug/members" element={<p>Landed in the organization</p>} />
    </Routes>,
    { path: '/invite/tok' },
  );
}

describe('the invitation page', () => {
  it('shows the organization and role, accepts, and lands in the organization', async () => {
    server.use(
      http.get('/api/invitations/tok', () => HttpResponse.json(PREVIEW)),
      http.post('/api/invitations/tok/accept', () =>
        HttpResponse.json({
          organization: { slug: 'globex', name: 'Globex' },
          member: {
            userId: 'user-me',
            imOpenId: 'ou_me',
            displayName: 'Mia Me',
            avatarUrl: null,
            role: 'ADMIN',
            createdAt: '2026-01-05T10:00:00.000Z',
          },
          teamIds: [],
          skippedTeamIds: [],
        }),
      ),
      http.get('/api/me', () => HttpResponse.json(signedIn('MEMBER').me)),
      http.get('/api/me/invitations', () => HttpResponse.json({ invitations: [] })),
    );
    const { user } = renderInvitation();
    expect(await screen.findByText(/Olga Owner invited you to join/)).toHaveTextContent('Globex');
    expect(screen.getByText('ADMIN')).toBeInTheDocument();
    expect(screen.getByText('Teams: Platform, Design.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Accept and join Globex' }));
    expect(await screen.findByText('Landed in the organization')).toBeInTheDocument();
  });

  it.each([
    ['expired', 'This invitation has expired; ask for a new one.'],
    ['revoked', 'This invitation was revoked; ask for a new one.'],
    ['accepted', 'This invitation was already accepted; a link is single use.'],
  ] as const)('explains a %s link and offers no accept', async (status, message) => {
    server.use(http.get('/api/invitations/tok', () => HttpResponse.json({ ...PREVIEW, status })));
    renderInvitation();
    expect(await screen.findByRole('alert')).toHaveTextContent(message);
    expect(screen.queryByRole('button', { name: /Accept/ })).not.toBeInTheDocument();
  });

  it('shows the server’s message for a wrong-email accept, and offers to sign in as someone else', async () => {
    const message = 'This invitation is for grace@example.com; sign in with an account that has it verified.';
    server.use(
      http.get('/api/invitations/tok', () => HttpResponse.json(PREVIEW)),
      http.post('/api/invitations/tok/accept', () =>
        HttpResponse.json(errorBody('invitation_email_mismatch', message), { status: 403 }),
      ),
    );
    const { user } = renderInvitation();
    await user.click(await screen.findByRole('button', { name: 'Accept and join Globex' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(message);
    expect(screen.getByRole('button', { name: 'Sign in as someone else' })).toBeInTheDocument();
  });

  it('names the provider a domain requires, with a button that signs in with it and comes back', async () => {
    const message = 'People with an address at globex.example sign in with Globex SSO. Sign in with it first.';
    const requiredSignIn = { domain: 'globex.example', providerId: 'globex-sso', providerLabel: 'Globex SSO' };
    server.use(
      http.get('/api/invitations/tok', () => HttpResponse.json(PREVIEW)),
      http.post('/api/invitations/tok/accept', () =>
        HttpResponse.json({ error: { code: 'sso_required', message, requiredSignIn } }, { status: 403 }),
      ),
    );
    const { user } = renderInvitation();
    await user.click(await screen.findByRole('button', { name: 'Accept and join Globex' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(message);
    expect(screen.getByRole('link', { name: 'Sign in with Globex SSO' })).toHaveAttribute(
      'href',
      `/auth/globex-sso/start?returnTo=${encodeURIComponent('/invite/tok')}`,
    );
  });

  it('shows an unknown link’s message', async () => {
    server.use(
      http.get('/api/invitations/tok', () =>
        HttpResponse.json(errorBody('invitation_not_found', 'No invitation has this link.'), { status: 404 }),
      ),
    );
    renderInvitation();
    expect(await screen.findByRole('alert')).toHaveTextContent('No invitation has this link.');
  });

  it('asks a visitor without a session to sign in, coming back here', () => {
    renderInOrg(<InvitationSignIn path="/invite/tok" />);
    expect(screen.getByRole('link', { name: 'Sign in to continue' })).toHaveAttribute(
      'href',
      `/signin?returnTo=${encodeURIComponent('/invite/tok')}`,
    );
  });
});

describe('MyInvitations', () => {
  it('lists the invitations addressed to the person and joins one', async () => {
    const accepted: string[] = [];
    server.use(
      http.get('/api/me/invitations', () =>
        HttpResponse.json({ invitations: [{ id: 'i-9', ...PREVIEW, status: undefined }] }),
      ),
      http.post('/api/me/invitations/:id/accept', ({ params }) => {
        accepted.push(String(params.id));
        return HttpResponse.json(errorBody('capacity_exceeded', 'The organization is full.'), { status: 409 });
      }),
    );
    const { user } = renderInOrg(<MyInvitations />);
    await user.click(await screen.findByRole('button', { name: 'Join Globex' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('The organization is full.');
    expect(accepted).toEqual(['i-9']);
  });

  it('says to ask an admin when none is addressed to the person', async () => {
    server.use(http.get('/api/me/invitations', () => HttpResponse.json({ invitations: [] })));
    renderInOrg(<MyInvitations />);
    expect(await screen.findByText(/Ask an organization's admin to invite you/)).toBeInTheDocument();
  });
});
