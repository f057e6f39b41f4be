import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router';
import { type Me, type OrgMembership, type OrgRole, OrgProvider } from '../lib/authorization';

export const ORG_SLUG = 'acme';

/** The signed-in person, holding `role` in the organization `acme`. */
export function signedIn(role: OrgRole): { me: Me; org: OrgMembership } {
  const org: OrgMembership = { id: 'org-1', slug: ORG_SLUG, name: 'Acme', status: 'ACTIVE', role };
  const me: Me = {
    user: { id: 'user-me', imOpenId: 'ou_me', displayName: 'Mia Me', avatarUrl: null },
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
