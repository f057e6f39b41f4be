import type { CSSProperties, ReactNode, Ref } from 'react';

/** A named scrolling area (a list, a wide table) that keyboard users can focus and scroll. */
export function ScrollRegion({
  label,
  style,
  children,
  ref,
}: {
  label: string;
  style?: CSSProperties;
  children: ReactNode;
  ref?: Ref<HTMLElement>;
}) {
  return (
    // A scrollable region must take focus so keyboard users can scroll it (axe: scrollable-region-focusable).
    // biome-ignore lint/a11y/noNoninteractiveTabindex: see above.
    <section ref={ref} aria-label={label} tabIndex={0} style={{ overflow: 'auto', ...style }}>
      {children}
    </section>
  );
}
