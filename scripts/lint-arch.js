#!/usr/bin/env node
// Architecture check (`npm run lint:arch`, test/arch.test.ts): import cycles, forbidden arrows between rooms, and
// over-long files and functions in the source rooms. The rules are the table RULES below (docs/ARCHITECTURE.md).
'use strict';

const fs = require('node:fs');
const path = require('node:path');
const ts = require('typescript');

/**
 * The rules, as data. Paths are relative to the repository root; a pattern matches a file when the file's path
 * starts with it ('compiler/middle/passes' matches passes.ts and passes/*), so a directory pattern ends in '/'.
 * - rooms: the directories checked (cycles, sizes; arrows start only from files here).
 * - maxFileLines / maxFunctionLines: a function's span counts from its first to its last line, nested functions included.
 * - arrows: `from` files may not import `to` files, except files matching `except`. Type-only imports count.
 */
const RULES = {
  rooms: ['compiler/', 'daemon/', 'client/', 'protocol/', 'cicc/', 'service/', 'watch/'],
  maxFileLines: 1200,
  maxFunctionLines: 150,
  arrows: [
    { from: ['compiler/options.ts', 'compiler/diagnostics.ts'], to: ['compiler/'], except: [],
      why: 'options and diagnostics are the ground floor: they import nothing in compiler/' },
    { from: ['compiler/frontend/'], to: ['compiler/'],
      except: ['compiler/frontend/', 'compiler/middle/', 'compiler/options.ts', 'compiler/diagnostics.ts'],
      why: 'the frontend imports only the middle, options and diagnostics' },
    { from: ['compiler/middle/'], to: ['compiler/frontend/', 'compiler/backend/'], except: [],
      why: 'the middle imports neither the frontend nor the backend' },
    { from: ['compiler/middle/analysis/'], to: ['compiler/middle/passes'], except: [],
      why: 'analyses import no pass' },
    { from: ['compiler/backend/'], to: ['compiler/middle/'], except: ['compiler/middle/ir', 'compiler/middle/analysis/'],
      why: 'the backend imports the IR and the analyses of the middle, never a pass' },
    { from: ['compiler/incremental/'], to: ['compiler/compile.ts'], except: [],
      why: 'incremental compilation answers "compile whole" instead of calling compile.ts' },
    { from: ['compiler/'], to: ['daemon/', 'client/', 'protocol/', 'cicc/', 'service/', 'watch/'], except: [],
      why: 'the compiler is pure: it imports nothing outside compiler/' },
    { from: ['daemon/'], to: ['client/'], except: [],
      why: 'the daemon imports no client file (shared code lives in protocol/ and cicc/)' },
    { from: ['client/'], to: ['daemon/'], except: [],
      why: 'the client imports no daemon file (shared code lives in protocol/ and cicc/)' },
    { from: ['protocol/'], to: ['daemon/', 'client/', 'cicc/', 'service/', 'watch/'], except: [],
      why: 'the protocol is the floor daemon and client share: it imports none of the rooms above it' },
    { from: ['service/'], to: ['daemon/', 'client/', 'cicc/', 'watch/'], except: [],
      why: 'the in-process compile service sits below the cicc call, the daemon and the client' },
    { from: ['cicc/'], to: ['daemon/', 'client/', 'watch/'], except: [],
      why: 'the cicc call is shared by daemon and client and imports neither' },
    { from: ['watch/'], to: ['daemon/', 'client/'], except: [],
      why: 'watch mode is run by the CLI and the daemon and imports neither' },
    // Not yet in force: the daemon and the client reach the compiler through its one pipeline entry.
    { from: ['daemon/', 'client/', 'cicc/', 'service/', 'watch/', 'protocol/'], to: ['compiler/'],
      except: ['compiler/index.ts', 'compiler/options.ts', 'compiler/diagnostics.ts', 'compiler/incremental/store.ts', 'compiler/frontend/header-regions.ts'],
      why: 'outside compiler/, the compiler is reached through compiler/index.ts (options, diagnostics, the piece store interface and the system-header check load without it, for start-up)' },
  ],
};

function matches(file, patterns) {
  return patterns.some(p => file.startsWith(p));
}

function listTs(root, dir, out) {
  const abs = path.join(root, dir);
  if (!fs.existsSync(abs)) return out;
  for (const e of fs.readdirSync(abs, { withFileTypes: true })) {
    const rel = path.posix.join(dir, e.name);
    if (e.isDirectory()) {
      if (e.name !== 'node_modules') listTs(root, rel, out);
    } else if (rel.endsWith('.ts') && !rel.endsWith('.d.ts')) {
      out.push(rel);
    }
  }
  return out;
}

/** The repository file a relative specifier names (x, x.ts, x.js, x/index.ts), or null for a package or a missing file. */
function resolveSpecifier(root, fromFile, spec) {
  if (!spec.startsWith('.')) return null;
  const base = path.posix.normalize(path.posix.join(path.posix.dirname(fromFile), spec));
  const stem = base.replace(/\.js$/, '');
  for (const cand of [base, `${stem}.ts`, `${stem}/index.ts`]) {
    if (cand.endsWith('.ts') && fs.existsSync(path.join(root, cand)) && fs.statSync(path.join(root, cand)).isFile()) return cand;
  }
  return null;
}

const FUNCTION_KINDS = new Set([
  ts.SyntaxKind.FunctionDeclaration, ts.SyntaxKind.MethodDeclaration, ts.SyntaxKind.ArrowFunction,
  ts.SyntaxKind.FunctionExpression, ts.SyntaxKind.Constructor, ts.SyntaxKind.GetAccessor, ts.SyntaxKind.SetAccessor,
]);

function functionName(node, sf) {
  if (node.kind === ts.SyntaxKind.Constructor) return 'constructor';
  if (node.name) return node.name.getText(sf);
  // `const f = () => ...` and `x: function () {...}` take the name they are bound to
  const p = node.parent;
  if (p && (ts.isVariableDeclaration(p) || ts.isPropertyAssignment(p) || ts.isPropertyDeclaration(p)) && p.name) return p.name.getText(sf);
  return '<anonymous>';
}

/** One file's imports (with their lines) and its over-long functions. */
function scanFile(root, file) {
  const text = fs.readFileSync(path.join(root, file), 'utf8');
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true);
  const lineOf = pos => sf.getLineAndCharacterOfPosition(pos).line + 1;
  const imports = [];
  const functions = [];
  const addImport = (spec, node) => {
    const target = resolveSpecifier(root, file, spec);
    const line = lineOf(node.getStart(sf));
    // `require('./x') as typeof import('./x')` names one import twice on one line
    if (target && !imports.some(i => i.target === target && i.line === line)) imports.push({ target, line });
  };
  const visit = node => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      addImport(node.moduleSpecifier.text, node);   // `import type` and `export ... from` included
    } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)
      && ts.isStringLiteral(node.moduleReference.expression)) {
      addImport(node.moduleReference.expression.text, node);
    } else if (ts.isCallExpression(node) && node.arguments.length >= 1 && ts.isStringLiteral(node.arguments[0])
      && (node.expression.kind === ts.SyntaxKind.ImportKeyword || (ts.isIdentifier(node.expression) && node.expression.text === 'require'))) {
      addImport(node.arguments[0].text, node);      // require('./x') and import('./x')
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      addImport(node.argument.literal.text, node);  // `import('./x').T` in a type
    }
    if (FUNCTION_KINDS.has(node.kind) && node.body) {
      const first = lineOf(node.getStart(sf));
      const lines = lineOf(node.end) - first + 1;
      functions.push({ name: functionName(node, sf), line: first, lines });
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  const lines = text.length === 0 ? 0 : text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
  return { imports, functions, lines };
}

/** Strongly connected components of more than one file (or a file importing itself), by Tarjan's algorithm. */
function cycles(graph) {
  let next = 0;
  const index = new Map(), low = new Map(), stack = [], onStack = new Set(), out = [];
  const strong = v => {
    index.set(v, next); low.set(v, next); next++;
    stack.push(v); onStack.add(v);
    for (const w of graph.get(v) || []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) { strong(w); low.set(v, Math.min(low.get(v), low.get(w))); }
      else if (onStack.has(w)) low.set(v, Math.min(low.get(v), index.get(w)));
    }
    if (low.get(v) === index.get(v)) {
      const scc = [];
      let w;
      do { w = stack.pop(); onStack.delete(w); scc.push(w); } while (w !== v);
      if (scc.length > 1 || (graph.get(v) || []).includes(v)) out.push(scc.sort());
    }
  };
  for (const v of [...graph.keys()].sort()) if (!index.has(v)) strong(v);
  return out;
}

/** A shortest way back from `start` to itself inside one component: the files in order. */
function oneCycle(start, graph, members) {
  const prev = new Map();
  const queue = [start];
  while (queue.length) {
    const v = queue.shift();
    for (const w of graph.get(v) || []) {
      if (!members.has(w)) continue;
      if (w === start) {
        const pathBack = [v];
        for (let u = v; u !== start; u = prev.get(u)) pathBack.push(prev.get(u));
        return pathBack.reverse();
      }
      if (!prev.has(w)) { prev.set(w, v); queue.push(w); }
    }
  }
  return [start];
}

/**
 * Every violation in the tree at `root`, sorted: { kind: 'cycle'|'arrow'|'file-size'|'function-size', file, line, message }.
 */
function checkArchitecture(root, rules = RULES) {
  const files = rules.rooms.flatMap(r => listTs(root, r.replace(/\/$/, ''), [])).sort();
  // a wrong root must not pass as a clean tree
  if (files.length === 0) throw new Error(`lint:arch: no .ts file under ${rules.rooms.join(', ')} in ${root}`);
  const scans = new Map(files.map(f => [f, scanFile(root, f)]));
  const violations = [];
  const graph = new Map();
  for (const [file, s] of scans) {
    graph.set(file, [...new Set(s.imports.map(i => i.target))]);
    if (s.lines > rules.maxFileLines) {
      violations.push({ kind: 'file-size', file, line: 1, message: `${s.lines} lines (at most ${rules.maxFileLines})` });
    }
    for (const fn of s.functions) {
      if (fn.lines > rules.maxFunctionLines) {
        violations.push({ kind: 'function-size', file, line: fn.line, message: `function ${fn.name} is ${fn.lines} lines (at most ${rules.maxFunctionLines})` });
      }
    }
    for (const imp of s.imports) {
      for (const a of rules.arrows) {
        if (a.off || !matches(file, a.from) || !matches(imp.target, a.to) || matches(imp.target, a.except || [])) continue;
        violations.push({ kind: 'arrow', file, line: imp.line, message: `imports ${imp.target}: ${a.why}` });
      }
    }
  }
  const lineOfImport = (from, to) => scans.get(from).imports.find(i => i.target === to).line;
  for (const scc of cycles(graph)) {
    const ring = oneCycle(scc[0], graph, new Set(scc));
    const steps = ring.map((f, k) => `${f}:${lineOfImport(f, ring[(k + 1) % ring.length])}`);
    violations.push({
      kind: 'cycle', file: ring[0], line: lineOfImport(ring[0], ring[1 % ring.length]),
      message: `import cycle ${steps.join(' -> ')} -> ${ring[0]}` + (scc.length > ring.length ? ` (${scc.length} files in the cycle: ${scc.join(', ')})` : ''),
    });
  }
  const order = { cycle: 0, arrow: 1, 'file-size': 2, 'function-size': 3 };
  return violations.sort((x, y) => order[x.kind] - order[y.kind] || (x.file < y.file ? -1 : x.file > y.file ? 1 : 0) || x.line - y.line);
}

function formatViolation(v) {
  return `${v.file}:${v.line}: ${v.kind}: ${v.message}`;
}

module.exports = { RULES, checkArchitecture, formatViolation };

if (require.main === module) {
  const root = path.resolve(process.argv[2] || path.join(__dirname, '..'));
  const found = checkArchitecture(root);
  for (const v of found) console.log(formatViolation(v));
  console.log(found.length === 0 ? 'lint:arch: no violations' : `lint:arch: ${found.length} violation(s)`);
  process.exitCode = found.length === 0 ? 0 : 1;
}
