import {
  ActionIcon,
  AppShell,
  Burger,
  Button,
  Group,
  NavLink,
  ScrollArea,
  Stack,
  Text,
  Tooltip,
  useComputedColorScheme,
  useMantineColorScheme,
} from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import type { ReactNode } from 'react';
import { NavLink as RouterNavLink, useNavigate } from 'react-router';
import { useLogout } from '../../lib/queries/logout';
import { homePath, isOrgAdmin, useOrg } from '../../lib/authorization';
import { SelectField } from '../select-field';
import { MAIN_ID, SkipLink } from './skip-link';

const ADMIN_NAV = [
  { to: 'members', label: 'Members' },
  { to: 'teams', label: 'Teams' },
  { to: 'projects', label: 'Projects' },
  { to: 'my-projects', label: 'My projects' },
  { to: 'my-usage', label: 'My usage' },
  { to: 'usage', label: 'Usage' },
  { to: 'connections', label: 'Connections' },
  { to: 'capacity', label: 'Capacity' },
  { to: 'agents/roles', label: 'Agent roles' },
  { to: 'agents/skills', label: 'Agent skills' },
  { to: 'agents/library', label: 'Agent library' },
  { to: 'tokens', label: 'API tokens' },
  { to: 'service-accounts', label: 'Service accounts' },
  { to: 'policies', label: 'Usage policies' },
  { to: 'audit', label: 'Audit log' },
  { to: 'webhooks', label: 'Webhooks' },
  { to: 'settings', label: 'Settings' },
];
const MEMBER_NAV = [
  { to: 'my-projects', label: 'My projects' },
  { to: 'my-usage', label: 'My usage' },
  { to: 'tokens', label: 'API tokens' },
];

function ColorSchemeToggle() {
  const { setColorScheme } = useMantineColorScheme();
  const computed = useComputedColorScheme('light');
  const next = computed === 'dark' ? 'light' : 'dark';
  return (
    <Tooltip label={`Switch to ${next} theme`}>
      <ActionIcon
        variant="default"
        size="lg"
        aria-label={`Switch to ${next} theme`}
        onClick={() => setColorScheme(next)}
      >
        <span aria-hidden="true">{computed === 'dark' ? '☀' : '☾'}</span>
      </ActionIcon>
    </Tooltip>
  );
}

function OrgSwitcher() {
  const { me, org } = useOrg();
  const navigate = useNavigate();
  if (me.organizations.length < 2) {
    return (
      <Text fw={600} truncate>
        {org.name}
      </Text>
    );
  }
  return (
    <SelectField
      aria-label="Organization"
      w={{ base: 150, sm: 220 }}
      value={org.slug}
      data={me.organizations.map((o) => ({ value: o.slug, label: o.name }))}
      onChange={(slug) => {
        const target = me.organizations.find((o) => o.slug === slug);
        if (target) navigate(homePath(target));
      }}
    />
  );
}

/** The frame of every organization screen: header, navigation by role, the signed-in user. */
/** `notices` shows above every page of the organization (what its members must not miss). */
export function OrgShell({ children, notices }: { children: ReactNode; notices?: ReactNode }) {
  const [opened, { toggle, close }] = useDisclosure();
  const { me, org } = useOrg();
  const logout = useLogout();
  const nav = isOrgAdmin(org.role) ? ADMIN_NAV : MEMBER_NAV;
  const base = `/o/${encodeURIComponent(org.slug)}`;
  return (
    <>
      <SkipLink />
      <AppShell
        header={{ height: 60 }}
        navbar={{ width: 240, breakpoint: 'sm', collapsed: { mobile: !opened } }}
        padding="md"
      >
        <AppShell.Header>
          <Group h="100%" px="md" justify="space-between" wrap="nowrap">
            <Group wrap="nowrap" gap="sm" miw={0}>
              <Burger opened={opened} onClick={toggle} hiddenFrom="sm" size="sm" aria-label="Toggle navigation" />
              <Text fw={700} visibleFrom="xs">
                Org Admin
              </Text>
              <OrgSwitcher />
            </Group>
            <ColorSchemeToggle />
          </Group>
        </AppShell.Header>
        <AppShell.Navbar p="sm" aria-label="Main">
          <AppShell.Section grow component={ScrollArea} type="auto">
            {nav.map((item) => (
              <NavLink
                key={item.to}
                component={RouterNavLink}
                to={`${base}/${item.to}`}
                label={item.label}
                onClick={close}
              />
            ))}
          </AppShell.Section>
          <AppShell.Section>
            <Stack gap={4} pt="sm">
              <Text size="sm" fw={600} data-testid="signed-in-user">
                {me.user.displayName}
              </Text>
              <Text size="xs" c="dimmed">
                {me.user.imOpenId} · {org.role}
              </Text>
              <Button variant="subtle" size="xs" component={RouterNavLink} to="/profile">
                Your profile
              </Button>
              <Button variant="default" size="xs" loading={logout.isPending} onClick={() => logout.mutate({})}>
                Sign out
              </Button>
            </Stack>
          </AppShell.Section>
        </AppShell.Navbar>
        {/* tabIndex -1: the skip link focuses the page itself; Tab then goes on from there. */}
        <AppShell.Main id={MAIN_ID} tabIndex={-1} style={{ outline: 'none' }}>
          {notices}
          {children}
        </AppShell.Main>
      </AppShell>
    </>
  );
}
