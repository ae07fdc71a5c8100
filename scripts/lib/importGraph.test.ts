import { describe, expect, it } from 'vitest';
import { commandImports, findCycles, importSpecifiers, resolveImport, type ImportGraph } from './importGraph';

const graph = (edges: Record<string, string[]>): ImportGraph => new Map(Object.entries(edges));

describe('the import graph', () => {
  it('reads static, type-only, re-exported, side-effect and literal dynamic imports, and nothing in comments or strings', () => {
    const source = [
      "import { a } from './a';",
      "import type { B } from '../b';",
      'import {',
      '  c,',
      '  d,',
      "} from './cd';",
      "import './side';",
      "export * from './all';",
      "export { e } from './e';",
      "const f = await import('./f');",
      "// import { no } from './comment';",
      "/* import './block'; */",
      'const s = "import x from \'./string\'";',
      "const t = `import('./template') ${await import('./inTemplate')}`;",
      "const r = /import '.\\/regex'/;",
      'const g = await import(name);',
      'const url = import.meta.url;',
      "import * as tf from '@tensorflow/tfjs';",
    ].join('\n');
    expect(importSpecifiers(source)).toEqual(['./a', '../b', './cd', './side', './all', './e', './f', './inTemplate', '@tensorflow/tfjs']);
  });

  it('resolves a relative path to its .ts or .tsx file or its index, and leaves packages alone', () => {
    const files = new Set(['/r/src/a.ts', '/r/src/b.tsx', '/r/src/c/index.ts']);
    const exists = (p: string) => files.has(p);
    expect(resolveImport('/r/src/x.ts', './a', exists)).toBe('/r/src/a.ts');
    expect(resolveImport('/r/src/x.ts', './a.ts', exists)).toBe('/r/src/a.ts');
    expect(resolveImport('/r/src/y/x.ts', '../b', exists)).toBe('/r/src/b.tsx');
    expect(resolveImport('/r/src/x.ts', './c', exists)).toBe('/r/src/c/index.ts');
    expect(resolveImport('/r/src/x.ts', './missing', exists)).toBeNull();
    expect(resolveImport('/r/src/x.ts', 'react', exists)).toBeNull();
  });

  it('finds no cycle in a graph without one', () => {
    expect(findCycles(graph({ a: ['b', 'c'], b: ['c'], c: [], d: ['a'] }))).toEqual([]);
  });

  it('finds each cycle once, as a closed path through it', () => {
    const g = graph({ a: ['b'], b: ['c'], c: ['a', 'd'], d: ['e'], e: ['d'], f: ['f'], g: ['a'] });
    expect(findCycles(g)).toEqual([
      ['a', 'b', 'c', 'a'],
      ['d', 'e', 'd'],
      ['f', 'f'],
    ]);
  });

  it('names the imports of a command file by a file that is not a command', () => {
    const g = graph({
      'cmd/a.ts': ['lib/x.ts', 'cmd/b.ts'],
      'cmd/b.ts': ['lib/x.ts'],
      'lib/x.ts': [],
      'lib/x.test.ts': ['lib/x.ts', 'cmd/a.ts'],
      'e2e/y.spec.ts': ['cmd/b.ts'],
    });
    expect(commandImports(g, new Set(['cmd/a.ts', 'cmd/b.ts']))).toEqual([
      ['e2e/y.spec.ts', 'cmd/b.ts'],
      ['lib/x.test.ts', 'cmd/a.ts'],
    ]);
  });
});
