/**
 * Calls `visitor` with `node` and every node under it, depth first, parents before their
 * children, in document order: what `visit(node, visitor)` of unist-util-visit does, without the
 * test functions and ancestor stacks it builds for every node, which made tree walks a quarter of
 * assembly's time on a large course.
 */
import type { Nodes } from 'mdast';

export function walk(node: Nodes, visitor: (node: Nodes) => void): void {
  visitor(node);
  if ('children' in node) for (const child of node.children) walk(child, visitor);
}
