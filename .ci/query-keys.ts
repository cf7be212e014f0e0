/**
 * Query keys have one owner (run by .ci/boundaries.ts): outside src/api, no code builds a key array by
 * hand; keys come from the factories in src/api/<area>/queries.ts, so a write invalidates exactly what it
 * touched and two spellings of one key cannot drift apart. An array literal counts as a hand-built key
 * when it is
 *
 * - the value of a `queryKey` or `mutationKey` property (`useQuery({ queryKey: ['x', id] })`);
 * - an argument of a QueryClient method that takes a key (`queryClient.getQueryData(['x'])`);
 * - bound to a name that the file uses in one of those places (`const key = ['x', id]; useQuery({ queryKey: key })`),
 *   or to a name ending in queryKey (`const rememberedQueryKey = ['uploads', 'remembered'] as const`);
 * - returned by a function whose name ends in Key or Keys (`const rememberedKey = (id) => ['uploads', id]`:
 *   a key factory outside src/api).
 *
 * The last two count only for an array that spells out part of a key (a string literal or a template
 * among its elements); `[...objectKey(client, bucket, key)]` is a factory's key. A plain `keys` or
 * `objectKeys` array is not taken for a query key: in this console such a name lists object keys.
 */
import { walk, type AstNode, type ParsedSource } from './source-graph.ts';

export interface KeyFinding {
  line: number;
  why: string;
}

/** QueryClient methods whose first argument may be a key. */
const KEY_METHODS = new Set([
  'getQueryData', 'setQueryData', 'getQueryState', 'getQueriesData', 'setQueriesData', 'invalidateQueries', 'refetchQueries',
  'cancelQueries', 'removeQueries', 'resetQueries', 'isFetching', 'isMutating', 'fetchQuery', 'prefetchQuery', 'ensureQueryData',
  'fetchInfiniteQuery', 'prefetchInfiniteQuery', 'ensureInfiniteQueryData', 'getQueryDefaults', 'setQueryDefaults',
  'getMutationDefaults', 'setMutationDefaults',
]);
const KEY_PROPERTIES = new Set(['queryKey', 'mutationKey']);
/** A function named like a key factory: fooKey, fooKeys, key, keys. */
const FACTORY_NAME = /(?:^k|K)eys?$/;
/** A variable named like a query key: queryKey, rememberedQueryKey, REMEMBERED_QUERY_KEYS. */
const QUERY_KEY_NAME = /query_?keys?$/i;

/** The array literal an expression is, through `as const`, `satisfies` and parentheses; else null. */
function arrayOf(node: unknown): AstNode | null {
  let current = node as AstNode | null | undefined;
  while (current && ['TSAsExpression', 'TSSatisfiesExpression', 'ParenthesizedExpression', 'TSTypeAssertion'].includes(current.type)) {
    current = current.expression as AstNode;
  }
  return current?.type === 'ArrayExpression' ? current : null;
}

function nameOf(node: unknown): string | null {
  const n = node as AstNode | null | undefined;
  if (!n) return null;
  if (n.type === 'Identifier') return n.name as string;
  if (n.type === 'Literal' && typeof n.value === 'string') return n.value;
  return null;
}

function identifierOf(node: unknown): string | null {
  let current = node as AstNode | null | undefined;
  while (current && ['TSAsExpression', 'TSSatisfiesExpression', 'ParenthesizedExpression', 'TSNonNullExpression'].includes(current.type)) {
    current = current.expression as AstNode;
  }
  return current?.type === 'Identifier' ? (current.name as string) : null;
}

/** Whether the array spells out part of a key: a string literal or a template among its elements. */
function spellsKey(array: AstNode): boolean {
  return (array.elements as Array<AstNode | null>).some((e) => e !== null && ((e.type === 'Literal' && typeof e.value === 'string') || e.type === 'TemplateLiteral'));
}

/** The key positions of one call: the arguments of a QueryClient key method. */
function keyArguments(node: AstNode): AstNode[] {
  if (node.type !== 'CallExpression') return [];
  const callee = node.callee as AstNode;
  if (callee.type !== 'MemberExpression' || !KEY_METHODS.has(nameOf(callee.property) ?? '')) return [];
  return node.arguments as AstNode[];
}

/** Hand-built query keys in one parsed file. */
export function findHandBuiltKeys(parsed: ParsedSource): KeyFinding[] {
  const found = new Map<number, KeyFinding>();
  const report = (node: AstNode, why: string) => {
    if (!found.has(node.start)) found.set(node.start, { line: parsed.lineOf(node.start), why });
  };
  const usedAsKey = new Set<string>();
  const bindings: Array<{ name: string; array: AstNode }> = [];
  walk(parsed.program, (node) => {
    if (node.type === 'Property' && KEY_PROPERTIES.has(nameOf(node.key) ?? '')) {
      const array = arrayOf(node.value);
      if (array) report(array, `a ${nameOf(node.key) ?? ''} array`);
      const name = identifierOf(node.value);
      if (name) usedAsKey.add(name);
    }
    for (const argument of keyArguments(node)) {
      const array = arrayOf(argument);
      if (array) report(array, `an array passed to ${nameOf((node.callee as AstNode).property) ?? ''}`);
      const name = identifierOf(argument);
      if (name) usedAsKey.add(name);
    }
    if (node.type === 'VariableDeclarator' && (node.id as AstNode).type === 'Identifier') {
      const array = arrayOf(node.init);
      if (array && spellsKey(array)) bindings.push({ name: (node.id as AstNode).name as string, array });
    }
    if (node.type === 'AssignmentExpression' && (node.left as AstNode).type === 'Identifier') {
      const array = arrayOf(node.right);
      if (array && spellsKey(array)) bindings.push({ name: (node.left as AstNode).name as string, array });
    }
    if (['FunctionDeclaration', 'FunctionExpression', 'ArrowFunctionExpression'].includes(node.type)) {
      const name = functionName(node, parsed);
      if (name && FACTORY_NAME.test(name)) {
        const body = node.body as AstNode;
        const returned = body.type === 'BlockStatement' ? [] : [body];
        if (body.type === 'BlockStatement') walkReturns(body, (r) => returned.push(r));
        for (const value of returned) {
          const array = arrayOf(value);
          if (array && spellsKey(array)) report(array, `a key array returned by ${name}()`);
        }
      }
    }
  });
  for (const { name, array } of bindings) {
    if (usedAsKey.has(name)) report(array, `an array bound to ${name}, used as a query key`);
    else if (QUERY_KEY_NAME.test(name)) report(array, `an array bound to ${name}`);
  }
  return [...found.values()].sort((a, b) => a.line - b.line);
}

/** The name a function is known by: its own, or the variable or property it is assigned to. */
function functionName(node: AstNode, parsed: ParsedSource): string | null {
  const own = nameOf(node.id);
  if (own) return own;
  // An arrow or function expression: `const fooKey = () => […]` or `{ fooKey: () => […] }`.
  const before = parsed.source.slice(Math.max(0, node.start - 120), node.start);
  const match = /([A-Za-z_$][\w$]*)\s*(?::\s*[^=]*)?[=:]\s*(?:async\s*)?$/.exec(before);
  return match?.[1] ?? null;
}

/** The values returned by a function body, not those of functions nested in it. */
function walkReturns(body: AstNode, onReturn: (value: AstNode) => void): void {
  const go = (value: unknown): void => {
    if (Array.isArray(value)) {
      for (const item of value) go(item);
      return;
    }
    const node = value as AstNode | null;
    if (!node || typeof node !== 'object' || typeof node.type !== 'string') return;
    if (['FunctionDeclaration', 'FunctionExpression', 'ArrowFunctionExpression'].includes(node.type)) return;
    if (node.type === 'ReturnStatement' && node.argument) onReturn(node.argument as AstNode);
    for (const key of Object.keys(node)) {
      if (key !== 'type' && key !== 'start' && key !== 'end' && typeof node[key] === 'object') go(node[key]);
    }
  };
  go(body.body);
}

export interface MutationFinding {
  line: number;
}

/**
 * Writes have one owner too: outside src/api no code writes a `mutationFn` of its own (`useMutation({
 * mutationFn: … })`, `mutationOptions({ mutationFn })`, a spread factory with its function replaced). A write
 * is a mutation factory in src/api/<resource>/queries.ts that owns its invalidation, and a view passes it to
 * useMutation (`useMutation(copyObjectMutation(client, queryClient))`), adding only what the view does with
 * the answer (a toast, a navigation) as `mutate`'s callbacks or useMutation's own.
 */
export function findInlineMutations(parsed: ParsedSource): MutationFinding[] {
  const found: MutationFinding[] = [];
  walk(parsed.program, (node) => {
    if (node.type === 'Property' && nameOf(node.key) === 'mutationFn') found.push({ line: parsed.lineOf(node.start) });
  });
  return found.sort((a, b) => a.line - b.line);
}
