import { Button } from '@mantine/core';
import type { ReactNode } from 'react';

/**
 * A download of the server's CSV: a link, so the browser saves the streamed answer to disk as it
 * arrives. While the figures on screen are loading or refused it stays in place, marked disabled
 * (a link has no `disabled`), and a click does nothing.
 */
export function CsvDownload({ href, disabled, children }: { href: string; disabled: boolean; children: ReactNode }) {
  return (
    <Button
      component="a"
      variant="default"
      size="xs"
      href={href}
      download
      aria-disabled={disabled || undefined}
      data-disabled={disabled || undefined}
      onClick={disabled ? (event) => event.preventDefault() : undefined}
    >
      {children}
    </Button>
  );
}
