import { Anchor } from '@mantine/core';
import { useState } from 'react';

/** The id of the page's main landmark, the skip link's target. */
export const MAIN_ID = 'main-content';

/**
 * "Skip to content": the first thing Tab reaches, so keyboard users pass the header and the
 * navigation in one key. Out of sight until it has focus, as sighted mouse users need it not.
 */
export function SkipLink() {
  const [focused, setFocused] = useState(false);
  return (
    <Anchor
      href={`#${MAIN_ID}`}
      onFocus={() => setFocused(true)}
      onBlur={() => setFocused(false)}
      onClick={(e) => {
        // Move focus, not only the scroll position, so the next Tab starts inside the page.
        e.preventDefault();
        document.getElementById(MAIN_ID)?.focus();
      }}
      fw={600}
      px="sm"
      py={6}
      bg="var(--mantine-color-body)"
      style={
        focused
          ? { position: 'fixed', top: 8, left: 8, zIndex: 1000, border: '2px solid currentColor', borderRadius: 4 }
          : { position: 'absolute', width: 1, height: 1, overflow: 'hidden', clipPath: 'inset(50%)' }
      }
    >
      Skip to content
    </Anchor>
  );
}
