/**
 * The import graph of the project's TypeScript and its cycles (`npm run check:cycles`). A file's
 * imports are read from its text: `import ... from '...'`, `import '...'`, `export ... from '...'`,
 * `import type ...` and `import('...')` with a literal path (a dynamic import is still an edge: the
 * module is loaded when it runs). Only relative paths count; they resolve to a `.ts` or `.tsx` file
 * (the path itself, with an extension added, or its `index`). Comments, strings and template texts
 * are skipped, so an `import` inside a string is not read as one.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

/** The files each file imports, by path (relative to the root, with `/`). */
export type ImportGraph = Map<string, string[]>;

/** The module paths a source text imports, in order (as written, relative or not). */
export function importSpecifiers(source: string): string[] {
  const tokens = tokenize(source);
  const found: string[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    if (t.kind !== 'word' || (t.text !== 'import' && t.text !== 'export')) continue;
    // `x.import`, `obj.export`: a property, not a keyword.
    if (i > 0 && tokens[i - 1].kind === 'punct' && tokens[i - 1].text === '.') continue;
    const next = tokens[i + 1];
    if (!next) continue;
    if (t.text === 'import' && next.kind === 'punct' && next.text === '(') {
      const arg = tokens[i + 2];
      const close = tokens[i + 3];
      if (arg?.kind === 'string' && close?.kind === 'punct' && (close.text === ')' || close.text === ',')) found.push(arg.text);
      continue;
    }
    if (t.text === 'import' && next.kind === 'string') {
      found.push(next.text);
      continue;
    }
    // `import.meta`
    if (next.kind === 'punct' && next.text === '.') continue;
    // A declaration: scan to its `from '...'`, stopping at a `;` or at a token no import or re-export holds.
    for (let j = i + 1; j < tokens.length; j++) {
      const u = tokens[j];
      if (u.kind === 'punct' && (u.text === ';' || u.text === '(' || u.text === '=')) break;
      if (u.kind === 'string') {
        if (tokens[j - 1].kind === 'word' && tokens[j - 1].text === 'from') found.push(u.text);
        break;
      }
    }
  }
  return found;
}

interface Token {
  kind: 'word' | 'string' | 'punct';
  text: string;
}

/** Words, string literals (their text) and punctuation of a source, without comments and template texts. */
function tokenize(s: string): Token[] {
  const out: Token[] = [];
  /** Open template literals: the brace depth at which each `${` began. */
  const templates: number[] = [];
  let depth = 0;
  let i = 0;
  const n = s.length;
  /** Skips a template's text from `i` (just after a backtick or a closing `}`) to its end or its next `${`. */
  const templateText = () => {
    while (i < n) {
      const c = s[i];
      if (c === '\\') i += 2;
      else if (c === '`') {
        i++;
        return;
      } else if (c === '$' && s[i + 1] === '{') {
        i += 2;
        templates.push(depth);
        depth++;
        return;
      } else i++;
    }
  };
  const regexAllowed = () => {
    const last = out[out.length - 1];
    if (!last) return true;
    if (last.kind === 'string') return false;
    if (last.kind === 'word') return /^(return|typeof|case|do|else|in|of|new|delete|void|throw|yield|await)$/.test(last.text);
    return !/^[)\]}]$/.test(last.text);
  };
  while (i < n) {
    const c = s[i];
    if (c === '/' && s[i + 1] === '/') {
      while (i < n && s[i] !== '\n') i++;
    } else if (c === '/' && s[i + 1] === '*') {
      const end = s.indexOf('*/', i + 2);
      i = end < 0 ? n : end + 2;
    } else if (c === '"' || c === "'") {
      let j = i + 1;
      let text = '';
      while (j < n && s[j] !== c && s[j] !== '\n') {
        if (s[j] === '\\') {
          text += s[j + 1] ?? '';
          j += 2;
        } else text += s[j++];
      }
      out.push({ kind: 'string', text });
      i = j + 1;
    } else if (c === '`') {
      i++;
      templateText();
      out.push({ kind: 'string', text: '' });
    } else if (c === '/' && regexAllowed()) {
      // A regular expression literal: skip it (with its classes, where a `/` does not end it).
      let j = i + 1;
      let inClass = false;
      while (j < n && s[j] !== '\n') {
        if (s[j] === '\\') j++;
        else if (s[j] === '[') inClass = true;
        else if (s[j] === ']') inClass = false;
        else if (s[j] === '/' && !inClass) break;
        j++;
      }
      i = j + 1;
      while (i < n && /[a-z]/i.test(s[i])) i++;
      out.push({ kind: 'string', text: '' });
    } else if (/[A-Za-z_$]/.test(c)) {
      let j = i + 1;
      while (j < n && /[\w$]/.test(s[j])) j++;
      out.push({ kind: 'word', text: s.slice(i, j) });
      i = j;
    } else if (/\d/.test(c)) {
      let j = i + 1;
      while (j < n && /[\w.]/.test(s[j])) j++;
      out.push({ kind: 'word', text: s.slice(i, j) });
      i = j;
    } else if (/\s/.test(c)) {
      i++;
    } else {
      if (c === '{') depth++;
      else if (c === '}') {
        depth--;
        if (templates.length && templates[templates.length - 1] === depth) {
          templates.pop();
          i++;
          templateText();
          continue;
        }
      }
      out.push({ kind: 'punct', text: c });
      i++;
    }
  }
  return out;
}

const EXTENSIONS = ['.ts', '.tsx'];

/** The `.ts`/`.tsx` file a relative import from `from` names, or null (a package, or another kind of file). */
export function resolveImport(from: string, specifier: string, exists: (path: string) => boolean): string | null {
  if (!specifier.startsWith('./') && !specifier.startsWith('../')) return null;
  const base = resolve(dirname(from), specifier);
  const candidates = [
    ...(EXTENSIONS.some((e) => base.endsWith(e)) ? [base] : []),
    ...(/\.(m?js|jsx)$/.test(base) ? EXTENSIONS.map((e) => base.replace(/\.(m?js|jsx)$/, e)) : []),
    ...EXTENSIONS.map((e) => base + e),
    ...EXTENSIONS.map((e) => join(base, 'index' + e)),
  ];
  return candidates.find(exists) ?? null;
}

/** Every `.ts`/`.tsx` file under `dir` (not in node_modules or a dot folder), sorted. */
export function sourceFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    if (name === 'node_modules' || name.startsWith('.')) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...sourceFiles(path));
    else if (EXTENSIONS.some((e) => name.endsWith(e)) && !name.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

/** The import graph of the files under `dirs` of `root`, keyed by paths relative to `root`. */
export function readImportGraph(root: string, dirs: readonly string[]): ImportGraph {
  const graph: ImportGraph = new Map();
  const name = (p: string) => relative(root, p).split(sep).join('/');
  const isFile = (p: string) => existsSync(p) && statSync(p).isFile();
  for (const file of dirs.flatMap((d) => sourceFiles(join(root, d)))) {
    const targets = importSpecifiers(readFileSync(file, 'utf8'))
      .map((spec) => resolveImport(file, spec, isFile))
      .filter((p): p is string => p !== null)
      .map(name);
    graph.set(name(file), [...new Set(targets)]);
  }
  return graph;
}

/**
 * The cycles of `graph`: one per strongly connected component with more than one file (or a file
 * importing itself), each as a closed path through the component (its first file repeated at the
 * end), in a stable order.
 */
export function findCycles(graph: ImportGraph): string[][] {
  const nodes = [...new Set([...graph.keys(), ...[...graph.values()].flat()])].sort();
  const next = (v: string) => [...(graph.get(v) ?? [])].sort();
  // Tarjan's strongly connected components, iteratively.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const components: string[][] = [];
  let counter = 0;
  for (const start of nodes) {
    if (index.has(start)) continue;
    const work: { v: string; edges: string[]; at: number }[] = [];
    const open = (v: string) => {
      index.set(v, counter);
      low.set(v, counter);
      counter++;
      stack.push(v);
      onStack.add(v);
      work.push({ v, edges: next(v), at: 0 });
    };
    open(start);
    while (work.length) {
      const top = work[work.length - 1];
      if (top.at < top.edges.length) {
        const w = top.edges[top.at++];
        if (!index.has(w)) open(w);
        else if (onStack.has(w)) low.set(top.v, Math.min(low.get(top.v)!, index.get(w)!));
        continue;
      }
      work.pop();
      if (work.length) {
        const parent = work[work.length - 1].v;
        low.set(parent, Math.min(low.get(parent)!, low.get(top.v)!));
      }
      if (low.get(top.v) === index.get(top.v)) {
        const component: string[] = [];
        let w: string;
        do {
          w = stack.pop()!;
          onStack.delete(w);
          component.push(w);
        } while (w !== top.v);
        components.push(component);
      }
    }
  }
  const cycles: string[][] = [];
  for (const component of components) {
    const members = new Set(component);
    const first = [...component].sort()[0];
    if (component.length === 1 && !next(first).includes(first)) continue;
    cycles.push(pathBack(first, members, next));
  }
  return cycles.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
}

/** The shortest path from `first` back to itself inside `members` (breadth first). */
function pathBack(first: string, members: Set<string>, next: (v: string) => string[]): string[] {
  const from = new Map<string, string>();
  const queue = [first];
  for (let q = 0; q < queue.length; q++) {
    const v = queue[q];
    for (const w of next(v)) {
      if (!members.has(w)) continue;
      if (w === first) {
        const path = [first];
        for (let u = v; u !== first; u = from.get(u)!) path.push(u);
        path.push(first);
        // Collected backwards from `v`: reverse the middle.
        return [first, ...path.slice(1, -1).reverse(), first];
      }
      if (!from.has(w)) {
        from.set(w, v);
        queue.push(w);
      }
    }
  }
  return [first, first];
}

/**
 * The imports of a command file by a file that is not one (a test, an e2e spec, a library module),
 * as [importer, command] pairs, sorted. A command may start another (bench-ui's `--soak`); the rest
 * import library modules only, so a command stays free to read its flags and exit when it loads.
 */
export function commandImports(graph: ImportGraph, commands: ReadonlySet<string>): [string, string][] {
  const out: [string, string][] = [];
  for (const [from, targets] of graph) if (!commands.has(from)) for (const to of targets) if (commands.has(to)) out.push([from, to]);
  return out.sort((a, b) => (a.join() < b.join() ? -1 : a.join() > b.join() ? 1 : 0));
}
