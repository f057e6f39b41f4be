import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, waitFor, within } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router';
import { type Me, type OrgMembership, type OrgRole, OrgProvider } from '../lib/authorization';

export const ORG_SLUG = 'acme';

/** The signed-in person, holding `role` in the organization `acme`. */
export function signedIn(role: OrgRole): { me: Me; org: OrgMembership } {
  const org: OrgMembership = {
    id: 'org-1',
    slug: ORG_SLUG,
    name: 'Acme',
    status: 'ACTIVE',
    purgeAt: null,
    role,
    teams: [],
  };
  const me: Me = {
    user: { id: 'user-me', imOpenId: 'ou_me', displayName: 'Mia Me', avatarUrl: null, displayNameEditable: true },
    organizations: [org],
  };
  return { me, org };
}

/**
 * Renders a screen's part as the app does — Mantine (with notifications), TanStack Query, a router
 * and the organization of an `/o/{slug}` route — for a caller with `role`. Each call has its own
 * QueryClient (no retries, nothing shared between tests). Mantine's `env="test"` turns off transitions
 * and portals, so a dialog opens and closes at once and renders inside the container.
 */
export function renderInOrg(ui: ReactNode, { role = 'ADMIN' as OrgRole, path = `/o/${ORG_SLUG}` } = {}) {
  const queryClient = new QueryClient({
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  });
  const user = userEvent.setup();
  const result = render(
    <MantineProvider env="test">
      <Notifications />
      <QueryClientProvider client={queryClient}>
        <MemoryRouter initialEntries={[path]}>
          <OrgProvider value={signedIn(role)}>{ui}</OrgProvider>
        </MemoryRouter>
      </QueryClientProvider>
    </MantineProvider>,
  );
  return { ...result, user, queryClient };
}

/** The contract's error envelope, as the server sends it. */
export const errorBody = (code: string, message: string) => ({ error: { code, message } });

/** Opens a select (the app's `SelectField`) by clicking it, and returns the listbox it controls. */
async function openSelect(user: UserEvent, select: HTMLElement): Promise<HTMLElement> {
  await user.click(select);
  return waitFor(() => {
    const list = document.getElementById(select.getAttribute('aria-controls') ?? '');
    if (!list) throw new Error('the select opened no listbox');
    return list;
  });
}

/** Chooses `option` in a select as a person would: opens it and clicks the option. */
export async function pick(user: UserEvent, select: HTMLElement, option: string) {
  const list = await openSelect(user, select);
  await user.click(within(list).getByRole('option', { name: option }));
}

/** The labels of the options a select offers, read by opening it; it is closed again. */
export async function optionsOf(user: UserEvent, select: HTMLElement): Promise<string[]> {
  const list = await openSelect(user, select);
  const names = within(list)
    .getAllByRole('option')
    .map((o) => o.textContent ?? '');
  await user.keyboard('{Escape}');
  return names;
}
