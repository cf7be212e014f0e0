import { describe, expect, it } from 'vitest';
import { checkSource } from './boundaries.ts';
import { findHandBuiltKeys } from './query-keys.ts';
import { parseSource } from './source-graph.ts';

const keysIn = (source: string) => findHandBuiltKeys(parseSource('src/features/x/y.tsx', source)).map((k) => k.line);

describe('query keys only from the factories in src/api', () => {
  it('catches the key that escaped the old text rule: an array bound to a name, then used as the key', () => {
    const escaped = [
      "const queryKey = ['uploads-ui', 'remembered', session.scope, bucket] as const;",
      'const remembered = useQuery({',
      '  queryKey,',
      '  queryFn: () => list(),',
      '});',
      'void queryClient.invalidateQueries({ queryKey });',
    ].join('\n');
    expect(keysIn(escaped)).toEqual([1]);
    expect(keysIn("const k = ['a', id];\nqueryClient.removeQueries({ queryKey: k });")).toEqual([1]);
    expect(keysIn("let k;\nk = ['a', id];\nqueryClient.getQueryData(k);")).toEqual([2]);
  });

  it('catches a key array as a queryKey or mutationKey, however it is written', () => {
    expect(keysIn("useQuery({ queryKey: [...bucketKey(client, bucket), 'object'], queryFn })")).toEqual([1]);
    expect(keysIn("useQuery({\n  queryFn,\n  queryKey:\n    ['x', id] as const,\n})")).toEqual([4]);
    expect(keysIn("useMutation({ 'mutationKey': ['save'] satisfies unknown[], mutationFn })")).toEqual([1]);
  });

  it('catches a key array passed to a QueryClient method', () => {
    expect(keysIn("queryClient.getQueryData(['qs', id, 'buckets']);")).toEqual([1]);
    expect(keysIn("client.setQueryData(['a'], (old) => old);\nqc.cancelQueries([...objectKey(c, b, k)]);")).toEqual([1, 2]);
  });

  it('catches a key factory written outside src/api, and an array named as a query key', () => {
    expect(keysIn("const rememberedKey = (scope: string) => ['uploads-ui', scope] as const;")).toEqual([1]);
    expect(keysIn("function partsKeys(id: string) {\n  if (!id) return [];\n  return ['parts', id];\n}")).toEqual([3]);
    expect(keysIn("export const LIST_QUERY_KEY = ['list'] as const;")).toEqual([1]);
  });

  it('leaves alone what is no hand-built key: factories, object key lists, arrays that are not keys', () => {
    const clean = [
      "const keys = ['report.pdf', 'a/b.txt'];",
      "const objectKeys = [`${prefix}a`, 'b'];",
      "const path = ['a', 'b'].join('/');",
      'useQuery({ queryKey: objectKey(client, bucket, key), queryFn });',
      'useQuery(headObjectQuery(client, ref));',
      'void queryClient.invalidateQueries({ queryKey: bucketKey(client, bucket) });',
      "const uploadKey = `${bucket}/${key}`;",
      "function renamedKey(key: string) { return [key, 'copy'].join(' '); }",
      "function sortKey(a: Row) { return rows.map(() => { return ['name']; }); }",
    ].join('\n');
    expect(keysIn(clean)).toEqual([]);
  });

  it('applies to src/ outside src/api, tests included', () => {
    const source = "queryClient.getQueryData(['qs', id]);";
    expect(checkSource('src/features/metadata/save.test.ts', source)).toEqual([expect.objectContaining({ rule: expect.stringMatching(/query key built outside src\/api: an array passed to getQueryData/) })]);
    expect(checkSource('src/hooks/use-x.ts', source)).toHaveLength(1);
    expect(checkSource('src/api/objects/queries.ts', source)).toEqual([]);
    expect(checkSource('mocks/handlers/object.ts', "const keys = ['a'];")).toEqual([]);
  });
});

describe('writes only from the mutation factories in src/api', () => {
  const inline = [
    'const save = useMutation({',
    '  mutationFn: (input: Input) => putObject(client, input),',
    '  onSuccess: () => queryClient.invalidateQueries({ queryKey: objectKey(client, bucket, key) }),',
    '});',
  ].join('\n');
  const rules = (file: string, source: string, pending?: ReadonlyMap<string, string>) => checkSource(file, source, pending ?? new Map()).map((v) => `${v.line}: ${v.rule}`);

  it('refuses a mutationFn written in a feature, a component, a hook or the app, however it is spelled', () => {
    const refused = '2: a write outside src/api: a mutationFn of its own (make it a mutation factory in src/api/<resource>/queries.ts that owns its invalidation)';
    for (const file of ['src/features/metadata/editor.tsx', 'src/components/cors-help.tsx', 'src/hooks/use-cors-fix.ts', 'src/app/routes/x.tsx']) expect(rules(file, inline)).toEqual([refused]);
    expect(rules('src/features/x/y.tsx', "const m = useMutation({ ...copyObjectMutation(client, qc),\n  mutationFn: async () => undefined });")).toEqual([refused]);
    expect(rules('src/features/x/y.tsx', "const options = mutationOptions({\n  'mutationFn': run });")).toEqual([refused]);
  });

  it('leaves alone a factory passed to useMutation, and the factories themselves in src/api', () => {
    expect(rules('src/features/object-actions/copy-form.tsx', 'const copy = useMutation(copyObjectMutation(client, queryClient));\ncopy.mutate(input, { onSuccess: () => toast(done) });')).toEqual([]);
    expect(rules('src/api/objects/queries.ts', inline)).toEqual([]);
    expect(rules('mocks/handlers/object.ts', inline)).toEqual([]);
  });

  it('lets a file still being moved keep its inline writes, and asks for its entry to go once they are gone', () => {
    const pending = new Map([['src/features/in-progress-uploads/upload-detail.tsx', 'Complete and Abort']]);
    expect(rules('src/features/in-progress-uploads/upload-detail.tsx', inline, pending)).toEqual([]);
    expect(rules('src/features/in-progress-uploads/upload-detail.tsx', 'const abort = useMutation(abortMultipartUploadMutation(client, queryClient));', pending)).toEqual([
      '1: no inline mutationFn left: remove its entry from INLINE_MUTATIONS in .ci/boundaries.ts',
    ]);
  });
});
