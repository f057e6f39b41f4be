import { Text } from '@mantine/core';
import { type CSSProperties, type ReactNode, type Ref, useCallback, useEffect, useRef, useState } from 'react';

/**
 * A named scrolling area (a list, a wide table) that keyboard users can focus and scroll. When its
 * content is wider than the screen (a phone), a cue under it says that it scrolls sideways and
 * which way is left, and the edge that hides columns fades: without it a table cut at the screen's
 * edge looks complete.
 */
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
  const own = useRef<HTMLElement | null>(null);
  const hidden = useHiddenSides(own);
  const setRef = useCallback(
    (node: HTMLElement | null) => {
      own.current = node;
      if (typeof ref === 'function') ref(node);
      else if (ref) ref.current = node;
    },
    [ref],
  );
  const fade = edgeFade(hidden);
  return (
    <div>
      {/* A scrollable region must take focus so keyboard users can scroll it (axe: scrollable-region-focusable). */}
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: see above. */}
      <section ref={setRef} aria-label={label} tabIndex={0} style={{ overflow: 'auto', ...fade, ...style }}>
        {children}
      </section>
      {(hidden.left || hidden.right) && (
        <Text size="xs" c="dimmed" ta="right" data-testid="scroll-cue">
          {hidden.left && <span aria-hidden="true">← </span>}
          {hidden.left && hidden.right ? 'More columns on both sides' : 'More columns'}
          {hidden.right && <span aria-hidden="true"> →</span>} — scroll the table sideways
        </Text>
      )}
    </div>
  );
}

type HiddenSides = { left: boolean; right: boolean };

/** Which sides of the element hide content, kept current as it scrolls and resizes. */
function useHiddenSides(element: { current: HTMLElement | null }): HiddenSides {
  const [hidden, setHidden] = useState<HiddenSides>({ left: false, right: false });
  useEffect(() => {
    const node = element.current;
    if (!node) return;
    const measure = () => {
      // One pixel of slack: zoomed layouts round widths to fractions.
      const left = node.scrollLeft > 1;
      const right = node.scrollLeft + node.clientWidth < node.scrollWidth - 1;
      setHidden((was) => (was.left === left && was.right === right ? was : { left, right }));
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(node);
    if (node.firstElementChild) observer.observe(node.firstElementChild);
    node.addEventListener('scroll', measure, { passive: true });
    return () => {
      observer.disconnect();
      node.removeEventListener('scroll', measure);
    };
  }, [element]);
  return hidden;
}

/** A mask that fades the sides hiding content, so a cut table reads as cut. */
function edgeFade({ left, right }: HiddenSides): CSSProperties {
  if (!left && !right) return {};
  const mask = `linear-gradient(to right, ${left ? 'transparent, #000 24px' : '#000'}, ${
    right ? '#000 calc(100% - 24px), transparent' : '#000'
  })`;
  return { maskImage: mask, WebkitMaskImage: mask };
}
