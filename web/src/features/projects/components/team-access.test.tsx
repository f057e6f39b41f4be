import { screen, waitFor, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import type { Schemas } from '../../../lib/api-client';
import { errorBody, ORG_SLUG, pick, renderInOrg } from '../../../test/render';
import { gate, server } from '../../../test/server';
import { MANAGE_REQUIRED, TeamAccess } from './team-access';

type Entry = Schemas['TeamAccessEntry'];
type PutBody = Schemas['PutTeamAccessRequest'];

const project = (caller: { canManage: boolean; isOrgAdmin: boolean }): Schemas['ProjectDetail'] => ({
  id: 'prj-1',
  name: 'Apollo',
  folderId: null,
  folder: null,
  workspaceDir: 'projects/prj-1',
  createdAt: '2026-01-05T10:00:00.000Z',
  archivedAt: null,
  createdBy: null,
  binding: null,
  actorIsOrgAdmin: caller.isOrgAdmin,
  actorCanManageProject: caller.canManage,
});

const entry = (teamId: string, teamName: string, role: Entry['role']): Entry => ({
  grantId: `grant-${teamId}`,
  projectId: 'prj-1',
  organizationId: 'org-1',
  teamId,
  teamSlug: teamName.toLowerCase(),
  teamName,
  role,
});

const TEAMS: Record<string, string> = { ops: 'team-ops', core: 'team-core' };
const ACCESS_PATH = `/api/org/${ORG_SLUG}/projects/prj-1/team-access`;

/**
 * The project's team access as the server keeps it: GET lists it, PUT grants or changes, DELETE revokes.
 * `respond` replaces the answer to a PUT (a refusal, a slow answer); every write is recorded.
 */
function teamAccessServer(initial: Entry[], respond?: { put?: () => Promise<Response> | Response }, manage = true) {
  let access = [...initial];
  const puts: PutBody[] = [];
  const deletes: string[] = [];
  server.use(
    // The teams to pick from come with the list, for a MANAGE holder only.
    http.get(ACCESS_PATH, () =>
      HttpResponse.json({
        access,
        teamChoices: manage ? Object.entries(TEAMS).map(([slug, id]) => ({ id, slug, name: slug })) : [],
      }),
    ),
    http.put(ACCESS_PATH, async ({ request }) => {
      const body = (await request.json()) as PutBody;
      puts.push(body);
      if (respond?.put) return respond.put();
      const teamId = body.teamId ?? TEAMS[body.teamSlug ?? ''];
      if (!teamId) return HttpResponse.json(errorBody('team_not_found', 'No such team'), { status: 404 });
      const name = Object.keys(TEAMS).find((slug) => TEAMS[slug] === teamId)!;
      const granted = entry(teamId, name[0]!.toUpperCase() + name.slice(1), body.role);
      access = [...access.filter((a) => a.teamId !== teamId), granted];
      return HttpResponse.json(granted);
    }),
    http.delete(`${ACCESS_PATH}/:teamId`, ({ params }) => {
      deletes.push(String(params.teamId));
      access = access.filter((a) => a.teamId !== params.teamId);
      return new HttpResponse(null, { status: 204 });
    }),
  );
  return { puts, deletes };
}

const grantButton = () => screen.getByRole('button', { name: 'Grant access' });

describe('TeamAccess', () => {
  it('without MANAGE lists the access but disables every control, saying why in words', async () => {
    const calls = teamAccessServer([entry('team-core', 'Core', 'EDIT')], undefined, false);
    renderInOrg(<TeamAccess project={project({ canManage: false, isOrgAdmin: true })} />, { role: 'ADMIN' });

    const row = (await screen.findByText('Core')).closest('tr')!;
    const reason = screen.getByTestId('manage-required');
    expect(reason).toHaveTextContent(MANAGE_REQUIRED);
    expect(reason).toHaveTextContent("needs this project's MANAGE grant");
    expect(reason.textContent).not.toMatch(/[a-z]+_[a-z]+/);

    expect(screen.getByRole('combobox', { name: 'Team' })).toBeDisabled();
    expect(screen.getByRole('combobox', { name: 'Access' })).toBeDisabled();
    expect(grantButton()).toBeDisabled();
    const rowAccess = within(row).getByRole('combobox', { name: 'Access of Core' });
    expect(rowAccess).toBeDisabled();
    expect(rowAccess).toHaveAttribute('title', MANAGE_REQUIRED);
    expect(within(row).getByRole('button', { name: 'Revoke access of Core' })).toBeDisabled();
    expect(calls.puts).toEqual([]);
    expect(calls.deletes).toEqual([]);
  });

  it('with MANAGE grants a team picked from the organization’s teams, then lists it and clears the form', async () => {
    const calls = teamAccessServer([]);
    const { user } = renderInOrg(<TeamAccess project={project({ canManage: true, isOrgAdmin: false })} />, {
      role: 'MEMBER',
    });

    expect(await screen.findByText('No team has access yet.')).toBeInTheDocument();
    expect(screen.queryByTestId('manage-required')).not.toBeInTheDocument();
    expect(grantButton()).toBeDisabled(); // nothing to grant yet

    await pick(user, screen.getByRole('combobox', { name: 'Team' }), 'ops (ops)');
    await pick(user, screen.getByRole('combobox', { name: 'Access' }), 'EDIT');
    expect(grantButton()).toBeEnabled();
    await user.click(grantButton());

    expect(await screen.findByText('Ops has EDIT on Apollo')).toBeInTheDocument();
    expect(calls.puts).toEqual([{ teamId: 'team-ops', role: 'EDIT' }]);
    const row = (await screen.findByText('Ops')).closest('tr')!;
    expect(within(row).getByRole('combobox', { name: 'Access of Ops' })).toHaveValue('EDIT');
    expect(screen.getByRole('combobox', { name: 'Team' })).toHaveValue('');
  });

  it('with MANAGE changes a team’s access and revokes it after confirming', async () => {
    const calls = teamAccessServer([entry('team-core', 'Core', 'READ')]);
    const { user } = renderInOrg(<TeamAccess project={project({ canManage: true, isOrgAdmin: true })} />);

    const rowAccess = await screen.findByRole('combobox', { name: 'Access of Core' });
    expect(rowAccess).toBeEnabled();
    await pick(user, rowAccess, 'MANAGE');
    expect(await screen.findByText('Core now has MANAGE')).toBeInTheDocument();
    expect(calls.puts).toEqual([{ teamId: 'team-core', role: 'MANAGE' }]);
    await waitFor(() => expect(rowAccess).toHaveValue('MANAGE'));

    await user.click(screen.getByRole('button', { name: 'Revoke access of Core' }));
    const dialog = screen.getByRole('dialog', { name: "Revoke Core's access?" });
    expect(dialog).toHaveTextContent('Members of Core lose the MANAGE access this grant gives them on Apollo.');
    await user.click(within(dialog).getByRole('button', { name: 'Revoke access' }));

    expect(await screen.findByText('No team has access yet.')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(calls.deletes).toEqual(['team-core']);
  });

  it('shows a grant in flight: the button is loading and cannot be pressed again', async () => {
    const slow = gate();
    const calls = teamAccessServer([], {
      put: async () => {
        await slow.opened;
        return HttpResponse.json(entry('team-ops', 'Ops', 'READ'));
      },
    });
    const { user } = renderInOrg(<TeamAccess project={project({ canManage: true, isOrgAdmin: false })} />);

    await pick(user, await screen.findByRole('combobox', { name: 'Team' }), 'ops (ops)');
    await user.click(grantButton());

    await waitFor(() => expect(grantButton()).toHaveAttribute('data-loading'));
    expect(grantButton()).toBeDisabled();
    await user.click(grantButton());
    expect(calls.puts).toHaveLength(1);

    slow.open();
    await waitFor(() => expect(grantButton()).not.toHaveAttribute('data-loading'));
    expect(await screen.findByText('Ops has READ on Apollo')).toBeInTheDocument();
  });

  it('shows a change in flight: the row’s access is disabled until the server answers', async () => {
    const slow = gate();
    teamAccessServer([entry('team-core', 'Core', 'READ')], {
      put: async () => {
        await slow.opened;
        return HttpResponse.json(entry('team-core', 'Core', 'EDIT'));
      },
    });
    const { user } = renderInOrg(<TeamAccess project={project({ canManage: true, isOrgAdmin: false })} />);

    const rowAccess = await screen.findByRole('combobox', { name: 'Access of Core' });
    await pick(user, rowAccess, 'EDIT');
    await waitFor(() => expect(rowAccess).toBeDisabled());

    slow.open();
    await waitFor(() => expect(rowAccess).toBeEnabled());
    expect(await screen.findByText('Core now has EDIT')).toBeInTheDocument();
  });

  it('shows the server’s message when a grant is refused, and keeps what was typed', async () => {
    teamAccessServer([], {
      put: () => HttpResponse.json(errorBody('team_not_found', 'No active team "team-ops" in acme.'), { status: 404 }),
    });
    const { user } = renderInOrg(<TeamAccess project={project({ canManage: true, isOrgAdmin: false })} />);

    await pick(user, await screen.findByRole('combobox', { name: 'Team' }), 'ops (ops)');
    await pick(user, screen.getByRole('combobox', { name: 'Access' }), 'MANAGE');
    await user.click(grantButton());

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Access not granted');
    expect(alert).toHaveTextContent('No active team "team-ops" in acme.');
    expect(screen.getByRole('combobox', { name: 'Team' })).toHaveValue('ops (ops)');
    expect(screen.getByRole('combobox', { name: 'Access' })).toHaveValue('MANAGE');
    expect(grantButton()).toBeEnabled();
  });

  it('shows the server’s message when a change is refused, and keeps the access the server holds', async () => {
    teamAccessServer([entry('team-core', 'Core', 'READ')], {
      put: () =>
        HttpResponse.json(errorBody('project_manage_required', 'Changing team access needs MANAGE on this project.'), {
          status: 403,
        }),
    });
    const { user } = renderInOrg(<TeamAccess project={project({ canManage: true, isOrgAdmin: false })} />);

    const rowAccess = await screen.findByRole('combobox', { name: 'Access of Core' });
    await pick(user, rowAccess, 'EDIT');

    expect(await screen.findByText('Access not changed')).toBeInTheDocument();
    expect(screen.getByText('Changing team access needs MANAGE on this project.')).toBeInTheDocument();
    await waitFor(() => expect(rowAccess).toBeEnabled());
    expect(rowAccess).toHaveValue('READ');
  });
});
