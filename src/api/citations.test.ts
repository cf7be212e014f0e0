import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The repository explains itself: every protocol citation in code (`ref §5.2`) resolves to a heading of
 * src/api/README.md, and no code comment points at what a clone does not have (an issue number of the
 * tracker, a document outside the repository). Run: npx vitest run src/api/citations.test.ts
 */

const ROOT = path.resolve(import.meta.dirname, '../..');
const PROTOCOL_README = path.join(ROOT, 'src/api/README.md');
const SCANNED_FOLDERS = ['src', 'mocks', 'e2e', 'bench'];
const CODE_FILE = /\.(?:ts|tsx|mts|cts|js|mjs|cjs|jsx)$/;
const THIS_FILE = path.relative(ROOT, import.meta.filename);

/** Section numbers (`5.2`) of every heading `§5.2 …` in a Markdown text. */
function headingSections(markdown: string): Set<string> {
  const sections = new Set<string>();
  for (const match of markdown.matchAll(/^#{1,6}[ \t]+§(\d+(?:\.\d+)*)(?=[\s.:—-]|$)/gm)) sections.add(match[1]!);
  return sections;
}

interface Citation {
  section: string;
  line: number;
}

/**
 * The `§N` citations of the protocol reference in `text`. A `§` token belongs to the nearest introducer
 * before it (within a few lines): `ref`/`reference` (this project's reference) or `RFC nnnn` (an RFC,
 * not checked). A `§` with no introducer at all counts as a reference citation, so that a bare `§4` cannot
 * hide an unresolved one. Lists such as `ref §5.2, §8.3` are covered by the same rule.
 */
function referenceCitations(text: string): Citation[] {
  const citations: Citation[] = [];
  const lineAt = lineFinder(text);
  for (const match of text.matchAll(/§(\d+(?:\.\d+)*)/g)) {
    const start = match.index;
    const before = text.slice(Math.max(0, start - 300), start);
    const introducers = [...before.matchAll(/\b(?:ref|reference|RFC[ \t]?\d+)\b/gi)];
    const nearest = introducers.at(-1)?.[0] ?? '';
    if (/^RFC/i.test(nearest)) continue;
    citations.push({ section: match[1]!, line: lineAt(start) });
  }
  return citations;
}

function lineOf(text: string, index: number): number {
  return lineFinder(text)(index);
}

/** `index → 1-based line` for one text, by binary search over its line starts. */
function lineFinder(text: string): (index: number) => number {
  const starts = [0];
  for (let i = 0; i < text.length; i += 1) if (text.charCodeAt(i) === 10) starts.push(i + 1);
  return (index) => {
    let low = 0;
    let high = starts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (starts[middle]! <= index) low = middle;
      else high = middle - 1;
    }
    return low + 1;
  };
}

interface Comment {
  text: string;
  line: number;
}

const REGEX_AFTER_WORD = new Set(['return', 'typeof', 'case', 'in', 'of', 'new', 'delete', 'void', 'throw', 'else', 'do', 'yield', 'await']);

/**
 * The comments of a JavaScript/TypeScript source: `// …` and `/* … *\/`, skipping strings, template
 * literals (with nested `${}`) and regular expression literals. A regex literal is told from a division by
 * the token before the `/`, as a parser would. JSX text is read as code; an apostrophe in it opens a
 * string that ends at the line end (strings cannot span lines), which keeps the damage to that line.
 */
function extractComments(source: string): Comment[] {
  const comments: Comment[] = [];
  const lineAt = lineFinder(source);
  // Each entry is the brace depth of an open `${` inside a template literal.
  const templateStack: number[] = [];
  let braceDepth = 0;
  let lastSignificant = '';
  let lastWord = '';
  let i = 0;
  const n = source.length;

  const readTemplate = (): void => {
    // i is just after a backtick or after the `}` that closes a `${`.
    while (i < n) {
      const c = source[i];
      if (c === '\\') {
        i += 2;
      } else if (c === '`') {
        i += 1;
        lastSignificant = '`';
        return;
      } else if (c === '$' && source[i + 1] === '{') {
        i += 2;
        templateStack.push(braceDepth);
        braceDepth += 1;
        lastSignificant = '{';
        return;
      } else {
        i += 1;
      }
    }
  };

  while (i < n) {
    const c = source[i]!;
    const next = source[i + 1];
    if (c === '/' && next === '/') {
      const end = source.indexOf('\n', i);
      const stop = end === -1 ? n : end;
      comments.push({ text: source.slice(i + 2, stop), line: lineAt(i) });
      i = stop;
    } else if (c === '/' && next === '*') {
      const end = source.indexOf('*/', i + 2);
      const stop = end === -1 ? n : end;
      comments.push({ text: source.slice(i + 2, stop), line: lineAt(i) });
      i = end === -1 ? n : end + 2;
    } else if (c === '"' || c === "'") {
      i += 1;
      while (i < n && source[i] !== c && source[i] !== '\n') i += source[i] === '\\' ? 2 : 1;
      i += 1;
      lastSignificant = c;
      lastWord = '';
    } else if (c === '`') {
      i += 1;
      readTemplate();
      lastWord = '';
    } else if (c === '/') {
      const regexAllowed = lastSignificant === '' || '(,=:[!&|?{};+-*%<>~^'.includes(lastSignificant) || REGEX_AFTER_WORD.has(lastWord);
      i += 1;
      if (regexAllowed) {
        let inClass = false;
        while (i < n && source[i] !== '\n') {
          const r = source[i];
          if (r === '\\') {
            i += 2;
            continue;
          }
          if (r === '[') inClass = true;
          else if (r === ']') inClass = false;
          else if (r === '/' && !inClass) break;
          i += 1;
        }
        i += 1;
        while (i < n && /[a-z]/i.test(source[i]!)) i += 1;
        lastSignificant = ')';
      } else {
        lastSignificant = '/';
      }
      lastWord = '';
    } else if (c === '{') {
      braceDepth += 1;
      lastSignificant = c;
      lastWord = '';
      i += 1;
    } else if (c === '}') {
      braceDepth -= 1;
      i += 1;
      if (templateStack.length > 0 && templateStack.at(-1) === braceDepth) {
        templateStack.pop();
        readTemplate();
      } else {
        lastSignificant = c;
      }
      lastWord = '';
    } else if (/[A-Za-z_$0-9]/.test(c)) {
      const start = i;
      while (i < n && /[A-Za-z_$0-9]/.test(source[i]!)) i += 1;
      lastWord = source.slice(start, i);
      lastSignificant = 'a';
    } else {
      if (!/\s/.test(c)) {
        lastSignificant = c;
        lastWord = '';
      }
      i += 1;
    }
  }
  return comments;
}

/** What a comment may not name: tracker issues and documents that live outside the repository. */
const FORBIDDEN_IN_COMMENTS: readonly { pattern: RegExp; why: string }[] = [
  { pattern: /\bissues?[ \t]*[-#]?[ \t]*\d+/gi, why: 'names an issue number' },
  { pattern: /\b(?:architecture|toolchain|qingstor-api)\.md\b/gi, why: 'names a document outside the repository' },
  { pattern: /(?:\.\.\/shared\b|\bshared\/reference\b|\/work\/)/g, why: 'names a path outside the repository' },
];

interface Problem {
  file: string;
  line: number;
  problem: string;
}

/** Every problem in one source text: unresolved citations anywhere in it, forbidden mentions in its comments. */
function checkSource(file: string, source: string, sections: ReadonlySet<string>): Problem[] {
  const problems: Problem[] = [];
  for (const citation of referenceCitations(source)) {
    if (!sections.has(citation.section)) {
      problems.push({ file, line: citation.line, problem: `§${citation.section} has no heading in src/api/README.md` });
    }
  }
  for (const comment of extractComments(source)) {
    for (const { pattern, why } of FORBIDDEN_IN_COMMENTS) {
      for (const found of comment.text.matchAll(pattern)) {
        problems.push({ file, line: comment.line + lineOf(comment.text, found.index) - 1, problem: `comment ${why}: "${found[0]}"` });
      }
    }
  }
  return problems;
}

function codeFiles(folder: string): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(path.join(ROOT, folder), { withFileTypes: true })) {
    const relative = path.join(folder, entry.name);
    if (entry.isDirectory()) files.push(...codeFiles(relative));
    else if (CODE_FILE.test(entry.name) && relative !== THIS_FILE) files.push(relative);
  }
  return files;
}

const sections = headingSections(readFileSync(PROTOCOL_README, 'utf8'));

describe('the repository explains itself', () => {
  it('src/api/README.md has the numbered sections the code cites', () => {
    for (const section of ['1.3', '2.3', '4', '5.2', '8.5', '9.9', '11.18', '12']) expect(sections).toContain(section);
  });

  it('every ref § citation in src, mocks, e2e and bench resolves, and no comment names an issue or an outside file', () => {
    const files = SCANNED_FOLDERS.flatMap(codeFiles);
    expect(files.length).toBeGreaterThan(100);
    const problems = files.flatMap((file) => checkSource(file, readFileSync(path.join(ROOT, file), 'utf8'), sections));
    expect(problems.map((p) => `${p.file}:${p.line} ${p.problem}`)).toEqual([]);
  });

  it('the comment reader stays in step with every scanned file (each line that starts with // is read as a comment)', () => {
    const missed: string[] = [];
    for (const file of SCANNED_FOLDERS.flatMap(codeFiles)) {
      const source = readFileSync(path.join(ROOT, file), 'utf8');
      const commentLines = new Set(extractComments(source).flatMap((c) => c.text.split('\n').map((_, k) => c.line + k)));
      source.split('\n').forEach((text, k) => {
        if (text.trimStart().startsWith('//') && !commentLines.has(k + 1)) missed.push(`${file}:${k + 1}`);
      });
    }
    expect(missed).toEqual([]);
  });

  it('the Markdown guides cite only sections that exist', () => {
    const guides = ['README.md', 'mocks/README.md', 'src/api/README.md'];
    const problems = guides.flatMap((file) =>
      referenceCitations(readFileSync(path.join(ROOT, file), 'utf8'))
        .filter((c) => !sections.has(c.section))
        .map((c) => `${file}:${c.line} §${c.section}`),
    );
    expect(problems).toEqual([]);
  });
});

describe('the check itself (fixtures)', () => {
  const fixtureSections = new Set(['1', '1.3', '5', '5.2']);
  // Spelled in two pieces so that a grep for citations in the tree finds none of these deliberate bad ones.
  const REF = ['ref', '§'].join(' ');
  const problemsOf = (source: string) => checkSource('fixture.ts', source, fixtureSections).map((p) => `${p.line} ${p.problem}`);

  it('fails on a citation without a heading, also inside a list after ref', () => {
    expect(problemsOf(`// ok (${REF}5.2)\n/** bad (${REF}99.1) */\nconst a = 1;`)).toEqual(['2 §99.1 has no heading in src/api/README.md']);
    expect(problemsOf(`// ${REF}1.3, §5.2 and §7`)).toEqual(['1 §7 has no heading in src/api/README.md']);
    expect(problemsOf(`describe('keys (${REF}42)', () => {});`)).toEqual(['1 §42 has no heading in src/api/README.md']);
  });

  it('ignores RFC sections but not a bare § without introducer', () => {
    expect(problemsOf('// RFC 9110 §5.6.7 and §13.1.3 are HTTP dates')).toEqual([]);
    expect(problemsOf(`// RFC 2047 §2 first, then ${REF}5.2, §8`)).toEqual(['1 §8 has no heading in src/api/README.md']);
    expect(problemsOf('// see §77')).toEqual(['1 §77 has no heading in src/api/README.md']);
  });

  it('fails on a comment naming an issue number or a file outside the repository', () => {
    expect(problemsOf('// opt-in (issue 4)\nconst x = 1; /* see architecture.md */')).toEqual([
      '1 comment names an issue number: "issue 4"',
      '2 comment names a document outside the repository: "architecture.md"',
    ]);
    expect(problemsOf('/**\n * quirks (reference/toolchain.md)\n * specs in ../shared/reference\n */')).toEqual([
      '2 comment names a document outside the repository: "toolchain.md"',
      '3 comment names a path outside the repository: "../shared"',
    ]);
    expect(problemsOf('// Issue #12 said so')).toEqual(['1 comment names an issue number: "Issue #12"']);
  });

  it('reads only comments for those mentions: strings, templates and regex literals are code', () => {
    const source = [
      "const a = 'issue 4 // not a comment';",
      'const b = `architecture.md ${"x" + `/* ../shared */`} //`;',
      'const c = /\\/\\/ issue 5/g.test(a) ? 1 / 2 : 3; // fine',
      'const d = x / y; /* issue 6 */',
      "const e = \"it's\"; // toolchain.md",
    ].join('\n');
    expect(problemsOf(source)).toEqual([
      '4 comment names an issue number: "issue 6"',
      '5 comment names a document outside the repository: "toolchain.md"',
    ]);
  });

  it('finds headings with § numbers in Markdown', () => {
    expect([...headingSections('# Title\n## §5 Objects\n### §5.2 Copy — PUT\nText §9\n#### §11.18\n')]).toEqual(['5', '5.2', '11.18']);
  });
});
