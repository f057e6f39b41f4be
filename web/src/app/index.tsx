import { type CSSVariablesResolver, createTheme, MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from 'react-router';
import { queryClient } from '../lib/query-client';
import { router } from './router';

// Shade 8 of the primary colour keeps text on filled buttons and links above WCAG AA contrast.
const theme = createTheme({
  primaryColor: 'blue',
  primaryShade: { light: 8, dark: 8 },
  components: {
    Modal: { defaultProps: { closeButtonProps: { 'aria-label': 'Close' } } },
    Drawer: { defaultProps: { closeButtonProps: { 'aria-label': 'Close' } } },
    // Light-variant alert titles in yellow or orange fall below 4.5:1: titles take the text colour.
    Alert: { styles: { title: { color: 'var(--mantine-color-text)' } } },
    Notification: { defaultProps: { closeButtonProps: { 'aria-label': 'Close notification' } } },
  },
});

/** Mantine's default dimmed text is below 4.5:1 on white and on striped rows: one shade darker (lighter in dark). */
const resolver: CSSVariablesResolver = (t) => ({
  variables: {},
  light: { '--mantine-color-dimmed': t.colors.gray[7]! },
  dark: { '--mantine-color-dimmed': t.colors.dark[1]! },
});

export function App() {
  return (
    <MantineProvider theme={theme} defaultColorScheme="auto" cssVariablesResolver={resolver}>
      {/* At the bottom, three at most, each closable: never stacked over the page's controls at the top. */}
      <Notifications position="bottom-right" limit={3} />
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </MantineProvider>
  );
}
