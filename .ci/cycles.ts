/**
 * No import cycles among the repository's source files (run by .ci/boundaries.ts). Every import counts:
 * static, re-export, dynamic `import('…')`, a worker's URL, and type-only ones too. A cycle of types is
 * still two modules that cannot be read, tested or moved one without the other; what they share belongs
 * in a module below both.
 */
import type { ParsedSource } from './source-graph.ts';

export interface Cycle {
  /** The files of one cycle in import order; the last imports the first. */
  files: string[];
  /** Where the first file imports the second. */
  line: number;
  text: string;
}

/** Every group of files that import each other (strongly connected), each shown as one concrete cycle. */
export function findCycles(sources: readonly ParsedSource[]): Cycle[] {
  const byFile = new Map(sources.map((s) => [s.file, s]));
  const edges = new Map<string, string[]>();
  for (const source of sources) {
    const targets = source.imports.filter((i) => i.target !== null && byFile.has(i.target)).map((i) => i.target as string);
    edges.set(source.file, [...new Set(targets)].sort());
  }

  // Tarjan's strongly connected components, iterative (no recursion limit on long import chains).
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const groups: string[][] = [];
  for (const root of [...edges.keys()].sort()) {
    if (index.has(root)) continue;
    const work: Array<{ node: string; next: number }> = [{ node: root, next: 0 }];
    index.set(root, counter);
    low.set(root, counter++);
    stack.push(root);
    onStack.add(root);
    while (work.length > 0) {
      const frame = work[work.length - 1]!;
      const targets = edges.get(frame.node) ?? [];
      if (frame.next < targets.length) {
        const target = targets[frame.next++]!;
        if (!index.has(target)) {
          index.set(target, counter);
          low.set(target, counter++);
          stack.push(target);
          onStack.add(target);
          work.push({ node: target, next: 0 });
        } else if (onStack.has(target)) {
          low.set(frame.node, Math.min(low.get(frame.node)!, index.get(target)!));
        }
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) low.set(parent.node, Math.min(low.get(parent.node)!, low.get(frame.node)!));
      if (low.get(frame.node) === index.get(frame.node)) {
        const group: string[] = [];
        let member: string;
        do {
          member = stack.pop()!;
          onStack.delete(member);
          group.push(member);
        } while (member !== frame.node);
        const selfImport = group.length === 1 && (edges.get(frame.node) ?? []).includes(frame.node);
        if (group.length > 1 || selfImport) groups.push(group.sort());
      }
    }
  }

  return groups.map((group) => {
    const files = shortestCycle(group[0]!, new Set(group), edges);
    const first = byFile.get(files[0]!)!;
    const ref = first.imports.find((i) => i.target === (files[1] ?? files[0]))!;
    return { files, line: ref.line, text: first.lineText(ref.line) };
  });
}

/** The shortest path from `start` back to itself inside one group (breadth first). */
function shortestCycle(start: string, group: ReadonlySet<string>, edges: ReadonlyMap<string, string[]>): string[] {
  const previous = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const node = queue.shift()!;
    for (const target of edges.get(node) ?? []) {
      if (!group.has(target)) continue;
      if (target === start) {
        const path = [node];
        while (path[0] !== start) path.unshift(previous.get(path[0]!)!);
        return path;
      }
      if (!previous.has(target)) {
        previous.set(target, node);
        queue.push(target);
      }
    }
  }
  return [start];
}
