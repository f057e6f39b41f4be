import { screen, waitFor, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import type { Schemas } from '../../../lib/api-client';
import type { OrgRole } from '../../../lib/authorization';
import { errorBody, ORG_SLUG, optionsOf, pick, renderInOrg } from '../../../test/render';
import { gate, server } from '../../../test/server';
import { MembersTable } from './members-table';

type Member = Schemas['OrgMember'];

const member = (userId: string, displayName: string, role: OrgRole): Member => ({
  userId,
  imOpenId: `ou_${userId}`,
  displayName,
  avatarUrl: null,
  role,
  createdAt: '2026-01-05T10:00:00.000Z',
});

const MEMBERS = [
  member('u-olga', 'Olga Owner', 'OWNER'),
  member('u-adam', 'Adam Admin', 'ADMIN'),
  member('u-mel', 'Mel Member', 'MEMBER'),
];
const MEMBER_PATH = `/api/org/${ORG_SLUG}/members/:userId`;
const LAST_OWNER_MESSAGE = 'Olga Owner is the last active OWNER of Acme.';

/** The organization's members as the server keeps them; `patch` replaces the answer to a role change. */
function membersServer(patch?: () => Promise<Response> | Response) {
  let members = [...MEMBERS];
  const changes: { userId: string; role: OrgRole }[] = [];
  server.use(
    http.get(`/api/org/${ORG_SLUG}/members`, () => HttpResponse.json({ members, nextCursor: null })),
    http.patch(MEMBER_PATH, async ({ request, params }) => {
      const { role } = (await request.json()) as Schemas['UpdateMemberRoleRequest'];
      changes.push({ userId: String(params.userId), role });
      if (patch) return patch();
      members = members.map((m) => (m.userId === params.userId ? { ...m, role } : m));
      return HttpResponse.json(members.find((m) => m.userId === params.userId));
    }),
    // Nothing stops or stays with these members: the Revoke dialog lists none.
    http.get(`${MEMBER_PATH}/departure`, ({ params }) =>
      HttpResponse.json({
        userId: String(params.userId),
        stops: { apiTokens: [] },
        stays: { webhooks: [], budgets: [] },
      }),
    ),
  );
  return { changes };
}

const roleSelect = (name: string) => screen.findByRole('combobox', { name: `Role of ${name}` });

describe('MembersTable', () => {
  it('an ADMIN is offered no OWNER role, and OWNER rows are disabled saying why', async () => {
    membersServer();
    const { user } = renderInOrg(<MembersTable />, { role: 'ADMIN' });

    const mel = await roleSelect('Mel Member');
    expect(await optionsOf(user, mel)).toEqual(['ADMIN', 'MEMBER']);
    expect(mel).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Revoke Mel Member' })).toBeEnabled();

    const olga = await roleSelect('Olga Owner');
    expect(olga).toBeDisabled();
    expect(olga).toHaveValue('OWNER');
    expect(olga).toHaveAttribute('title', 'Only an OWNER can change the role of an OWNER');
    expect(screen.getByRole('button', { name: 'Revoke Olga Owner' })).toBeDisabled();
    expect(screen.getByText(/Only an OWNER can make someone an OWNER/)).toBeInTheDocument();
  });

  it('an OWNER is offered OWNER and may change OWNER rows; making someone OWNER is saved', async () => {
    const calls = membersServer();
    const { user } = renderInOrg(<MembersTable />, { role: 'OWNER' });

    const mel = await roleSelect('Mel Member');
    expect(await optionsOf(user, mel)).toEqual(['OWNER', 'ADMIN', 'MEMBER']);
    const olga = await roleSelect('Olga Owner');
    expect(olga).toBeEnabled();
    expect(olga).not.toHaveAttribute('title');
    expect(screen.getByRole('button', { name: 'Revoke Olga Owner' })).toBeEnabled();
    expect(screen.queryByText(/Only an OWNER can make someone an OWNER/)).not.toBeInTheDocument();

    await pick(user, mel, 'OWNER');
    expect(await screen.findByText('Mel Member is now OWNER')).toBeInTheDocument();
    expect(calls.changes).toEqual([{ userId: 'u-mel', role: 'OWNER' }]);
    await waitFor(() => expect(mel).toHaveValue('OWNER'));
  });

  it('shows a role change in flight: saving, and the row’s role disabled until the server answers', async () => {
    const slow = gate();
    membersServer(async () => {
      await slow.opened;
      return HttpResponse.json({ ...MEMBERS[2]!, role: 'ADMIN' });
    });
    const { user } = renderInOrg(<MembersTable />, { role: 'ADMIN' });

    const mel = await roleSelect('Mel Member');
    await pick(user, mel, 'ADMIN');
    expect(await screen.findByLabelText('Saving')).toBeInTheDocument();
    expect(mel).toBeDisabled();

    slow.open();
    await waitFor(() => expect(screen.queryByLabelText('Saving')).not.toBeInTheDocument());
    expect(mel).toBeEnabled();
  });

  it('explains a role change refused with last_owner, and keeps the OWNER role shown', async () => {
    const calls = membersServer(() => HttpResponse.json(errorBody('last_owner', LAST_OWNER_MESSAGE), { status: 409 }));
    const { user } = renderInOrg(<MembersTable />, { role: 'OWNER' });

    const olga = await roleSelect('Olga Owner');
    await pick(user, olga, 'ADMIN');

    expect(await screen.findByText('Olga Owner is the last OWNER')).toBeInTheDocument();
    expect(screen.getByText(LAST_OWNER_MESSAGE)).toBeInTheDocument();
    expect(calls.changes).toEqual([{ userId: 'u-olga', role: 'ADMIN' }]);
    await waitFor(() => expect(olga).toBeEnabled());
    expect(olga).toHaveValue('OWNER');
    // The standing help says what to do instead.
    expect(screen.getByText(/Make another member an OWNER first/)).toBeInTheDocument();
  });

  it('keeps the revoke dialog open on the last OWNER, with the server’s message and what to do', async () => {
    membersServer();
    server.use(
      http.post(`${MEMBER_PATH}/revoke`, () =>
        HttpResponse.json(errorBody('last_owner', LAST_OWNER_MESSAGE), { status: 409 }),
      ),
    );
    const { user } = renderInOrg(<MembersTable />, { role: 'OWNER' });

    await user.click(await screen.findByRole('button', { name: 'Revoke Olga Owner' }));
    const dialog = screen.getByRole('dialog', { name: 'Revoke Olga Owner?' });
    await user.click(within(dialog).getByRole('button', { name: 'Revoke membership' }));

    const alert = await within(dialog).findByRole('alert');
    expect(alert).toHaveTextContent(LAST_OWNER_MESSAGE);
    expect(alert).toHaveTextContent('Make another member an OWNER first, then change or revoke this one.');
    expect(screen.getByRole('dialog', { name: 'Revoke Olga Owner?' })).toBeInTheDocument();
  });
});
