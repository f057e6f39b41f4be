/**
 * The data router: every screen is a lazy route module exporting `Component` and, where it has
 * data, a `loader` that prefetches through the shared QueryClient, so a screen renders with its
 * data and a deep link works on reload. Routes live under `/o/{slug}/…`.
 */
import { createBrowserRouter } from 'react-router';
import { PageLoader } from '../components/page-loader';
import { RouteError } from '../components/route-error';

export const router = createBrowserRouter([
  {
    path: '/',
    HydrateFallback: PageLoader,
    ErrorBoundary: RouteError,
    lazy: () => import('./routes/landing'),
  },
  {
    path: '/signin',
    HydrateFallback: PageLoader,
    ErrorBoundary: RouteError,
    lazy: () => import('./routes/sign-in'),
  },
  {
    path: '/profile',
    HydrateFallback: PageLoader,
    ErrorBoundary: RouteError,
    lazy: () => import('./routes/profile'),
  },
  {
    path: '/sign-in-test',
    HydrateFallback: PageLoader,
    ErrorBoundary: RouteError,
    lazy: () => import('./routes/sign-in-test'),
  },
  {
    path: '/invite/:token',
    HydrateFallback: PageLoader,
    ErrorBoundary: RouteError,
    lazy: () => import('./routes/invite'),
  },
  {
    path: '/o/:orgSlug',
    HydrateFallback: PageLoader,
    ErrorBoundary: RouteError,
    lazy: () => import('./routes/org/layout'),
    children: [
      { index: true, lazy: () => import('./routes/org/home') },
      {
        ErrorBoundary: RouteError,
        children: [
          { path: 'members', lazy: () => import('./routes/org/members') },
          { path: 'teams', lazy: () => import('./routes/org/teams') },
          { path: 'teams/:teamId', lazy: () => import('./routes/org/team') },
          { path: 'projects', lazy: () => import('./routes/org/projects') },
          { path: 'projects/:projectId', lazy: () => import('./routes/org/project') },
          { path: 'my-projects', lazy: () => import('./routes/org/my-projects') },
          { path: 'my-usage', lazy: () => import('./routes/org/my-usage') },
          { path: 'settings', lazy: () => import('./routes/org/settings') },
          { path: 'usage', lazy: () => import('./routes/org/usage') },
          { path: 'usage/budgets', lazy: () => import('./routes/org/budgets') },
          { path: 'connections', lazy: () => import('./routes/org/connections') },
          { path: 'capacity', lazy: () => import('./routes/org/capacity') },
          { path: 'agents/roles', lazy: () => import('./routes/org/agent-roles') },
          { path: 'agents/skills', lazy: () => import('./routes/org/agent-skills') },
          { path: 'agents/library', lazy: () => import('./routes/org/agent-library') },
          { path: 'tokens', lazy: () => import('./routes/org/tokens') },
          { path: 'service-accounts', lazy: () => import('./routes/org/service-accounts') },
          { path: 'service-accounts/:serviceAccountId', lazy: () => import('./routes/org/service-account') },
          { path: 'policies', lazy: () => import('./routes/org/policies') },
          { path: 'audit', lazy: () => import('./routes/org/audit') },
          { path: 'webhooks', lazy: () => import('./routes/org/webhooks') },
          { path: '*', lazy: () => import('./routes/not-found') },
        ],
      },
    ],
  },
  { path: '*', HydrateFallback: PageLoader, lazy: () => import('./routes/not-found') },
]);
