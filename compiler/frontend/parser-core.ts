// The parser's core: the Parser class with its state (token cursor, scopes, what is being parsed) and token helpers.
//
// The parser's methods live in room files, one job each (parser-lookup, -decls, -records, -targs, -lambda, -init,
// -stmts, -overload, -exprs, -primary, -traits). Each room is a class whose methods take `this: Parser`; it merges its
// methods into the Parser interface (module augmentation) and copies them onto Parser.prototype (addRoom). So the
// method bodies stay as they were (`this.parseExpr()` from any room), this file imports no room (no import cycle),
// and parser.ts, the entry, loads the core and every room. Free functions with the parser as first argument would
// have meant rewriting every `this.x()` call and importing rooms from each other (cycles between mutually
// recursive rooms).

import { Tok } from './tokens';
import { Unsupported } from '../diagnostics';
import type { Sym, VarSym, FuncSym, Pos } from './ast';
import { type CType, type Field, type RecordDecl, type MemberTmpl, C } from './ctype';
import { SyntaxAbort } from './parser-types';
import { MAX_NESTING } from './parser-words';
import type { Tokens } from './tokens';
import type { Index } from './index-types';
import type { CompileOptions } from '../options';
import type { Diagnostic } from '../diagnostics';
import type { Expr, Stmt, EnumDecl, TArg } from './ast';
import type { ConstEval } from './consteval';
import type { UserConversions } from './sema';
import type { RecIds, MemberClassTmpl } from './template-facts';
import type { Attrs, DeclSpec, DeclaratorInfo } from './parser-types';

export class Parser {
  p: number;
  scopes: Map<string, Sym>[] = [];
  fn: FuncSym | null = null;
  retTy: CType = C.void;
  breakable = 0;
  continuable = 0;
  switches: { cases: { v: bigint | null; id: number }[]; ty: CType }[] = [];
  caseId = 0;
  pendingUnroll: number | undefined;
  labels = new Set<string>();
  gotos: { label: string; pos: Pos }[] = [];

  constructor(public u: UnitApi, start: number, public end: number, public ns: string[]) { this.p = start; }

  // ------------------------------------------------------------------ tokens
  tx(i = 0): string { return this.u.text(this.p + i); }
  kind(i = 0): Tok { const j = this.p + i; return j >= this.end ? Tok.EOF : this.u.toks.kind[j] as Tok; }
  at(s: string, i = 0): boolean { const k = this.kind(i); return (k === Tok.Ident || k === Tok.Punct) && this.tx(i) === s; }
  eat(s: string): boolean { if (this.at(s)) { this.p++; return true; } return false; }
  expect(s: string): void {
    if (!this.eat(s)) this.syntax(`expected a "${s}"`, s === ';' ? 65 : s === ')' ? 18 : s === '(' ? 125 : s === ']' ? 17 : s === '}' ? 67 : s === '{' ? 130 : 65);
  }
  syntax(msg: string, num: number, pos = this.p): never { this.u.error(pos, num, msg); throw new SyntaxAbort(); }
  isIdent(i = 0): boolean { return this.kind(i) === Tok.Ident && !this.u.isKeyword(this.tx(i)); }
  /** The index of the bracket closing the one at token j. */
  balancedEnd(j: number): number {
    const save = this.p;
    this.p = j;
    this.skipBalanced();
    const end = this.p - 1;
    this.p = save;
    return end;
  }
  skipBalanced(): void {
    // at an opening bracket: skip to just after the matching closer
    const open = this.tx(); const close = open === '(' ? ')' : open === '[' ? ']' : '}';
    let depth = 0;
    do {
      if (this.kind() === Tok.EOF) return;
      const t = this.tx();
      if (t === '(' || t === '[' || t === '{') depth++;
      else if (t === ')' || t === ']' || t === '}') depth--;
      this.p++;
      void close;
    } while (depth > 0);
  }

  // ------------------------------------------------------------------ scopes and lookup
  push(): void { this.scopes.push(new Map()); }
  pop(): void {
    this.scopes.pop();
    while (this.usingNs.length && this.usingNs[this.usingNs.length - 1]!.depth > this.scopes.length) this.usingNs.pop();
    while (this.usingTmpls.length && this.usingTmpls[this.usingTmpls.length - 1]!.depth > this.scopes.length) this.usingTmpls.pop();
  }
  /** Templates named by block-scope using-declarations (`using cub::internal::enable_promotion; using ::cuda::std::is_same;`). */
  usingTmpls: { depth: number; name: string; path: string[] }[] = [];
  /** Block-scope using-directives in effect (namespace paths), with the scope depth that declared them. */
  usingNs: { depth: number; path: string[] }[] = [];
  declare(s: Sym): void { this.scopes[this.scopes.length - 1]!.set(s.name, s); }
  /** The class whose member function body (or class body) is being parsed, innermost first. */
  cls: RecordDecl | null = null;
  /** Template parameters bound for the tokens being parsed (an instantiation). */
  tscope: Map<string, Sym> | null = null;
  /** The scoped enum whose enumerator list is being parsed: its earlier enumerators are names there unqualified. */
  scopedEnumBody: { en: EnumDecl } | null = null;
  /** Parsing a template instantiation: functions are new entities; instRecord receives the class body. */
  instantiating = false;
  instRecord: RecordDecl | null = null;
  /** Loading an out-of-line member definition of this class template specialisation (`C<T>::f` names it). */
  outOfLineOf: RecordDecl | null = null;
  /** ... and the member it defines when that is a member template specialisation (not listed among the class's members). */
  outOfLineTarget: FuncSym | null = null;
  /** A '>>' of which the first '>' closed a template argument list; the second is still to come. */
  halfGt = false;
  /** Forget a `>>` half-read by closeAngle (after reading a template default that ends in the header's `>>`). */
  resetHalfGt(): void { this.halfGt = false; }
  /** Parsing a lambda body: scopes below `base` belong to the enclosing function (their variables are captured). */
  lambda: {
    base: number; rec: RecordDecl; byRef: boolean | null; explicit: Map<string, boolean>; caps: { v: VarSym; byRef: boolean }[]; outer: Parser;
    /** The enclosing member function's class (its members are named in the body), whether it has `this`, whether [this] was written, and the closure member holding it. */
    outerCls: RecordDecl | null; outerThis: boolean; thisCap: boolean; thisField: Field | null;
    /** A generic lambda's captures are decided when it is created: none may be added while instantiating. */
    frozen?: boolean;
  } | null = null;
  /** Member function templates named by the last unqualified lookup that stopped at a class member (or null). */
  foundMemberTmpls: MemberTmpl[] | null = null;
  recordStack: RecordDecl[] = [];
  /** Skip a default member initialiser (`= expr` or `{...}`) up to the ',' / ';' that ends it. */
  skipInitializerTokens(): void {
    while (this.kind() !== Tok.EOF && !this.at(',') && !this.at(';') && !this.at('}')) {
      if (this.at('(') || this.at('{') || this.at('[')) this.skipBalanced(); else this.p++;
    }
  }
  skipMember(): void {
    let declarator = false;   // a parameter list was seen: a `:` now starts a constructor's mem-initializers
    while (this.kind() !== Tok.EOF) {
      if (this.at(';')) { this.p++; return; }
      if (this.at('{')) { this.skipBalanced(); this.eat(';'); return; }
      if (this.at('(') || this.at('[')) { declarator ||= this.at('('); this.skipBalanced(); continue; }
      if (this.at('}')) return;
      if (declarator && this.at(':')) { this.p++; this.skipMemInitializers(); continue; }
      this.p++;
    }
  }
  /** Skips `a(x), b{y}, Base<T>(z)` up to the constructor's body: a braced initializer is not the body. */
  skipMemInitializers(): void {
    for (;;) {
      let angle = 0;
      while (this.kind() !== Tok.EOF && !(angle <= 0 && (this.at('(') || this.at('{'))) && !this.at(';') && !this.at('}')) {
        if (this.at('<')) angle++;
        else if (this.at('>')) angle--;
        else if (this.at('>>')) angle -= 2;
        if (this.at('(') || this.at('[')) { this.skipBalanced(); continue; }
        this.p++;
      }
      if (!this.at('(') && !this.at('{')) return;
      this.skipBalanced();
      if (this.at('...')) this.p++;
      if (!this.eat(',')) return;
    }
  }
  /** Skips one statement without reading it (the discarded branch of `if constexpr`). */
  skipStmt(): void {
    if (this.at('{')) { this.skipBalanced(); return; }
    if (this.at('if')) {
      this.p++; this.eat('constexpr');
      if (this.at('(')) this.skipBalanced();
      this.skipStmt();
      if (this.eat('else')) this.skipStmt();
      return;
    }
    if (this.at('for') || this.at('while') || this.at('switch')) { this.p++; if (this.at('(')) this.skipBalanced(); this.skipStmt(); return; }
    if (this.at('do')) { this.p++; this.skipStmt(); this.eat('while'); if (this.at('(')) this.skipBalanced(); this.eat(';'); return; }
    this.skipToSemi();
  }
  skipToSemi(): void {
    while (this.kind() !== Tok.EOF && !this.at(';')) { if (this.at('(') || this.at('{') || this.at('[')) this.skipBalanced(); else this.p++; }
    this.eat(';');
  }
  /** Length in tokens of a balanced `<...>` starting at offset i (0 when not at '<'). */
  angleLength(i: number): number {
    if (!this.at('<', i)) return 0;
    let depth = 0;
    for (let j = i; ; j++) {
      const k = this.kind(j);
      if (k === Tok.EOF) return 0;
      const t = this.tx(j);
      if (t === '<') depth++;
      else if (t === '>') { depth--; if (depth === 0) return j - i + 1; }
      else if (t === '>>') { depth -= 2; if (depth <= 0) return j - i + 1; }
      else if (t === '(' || t === '[') { const save = this.p; this.p += j; this.skipBalanced(); const n = this.p - save; this.p = save; j = n - 1; }
      else if (t === ';' || t === '{' || t === '}') return 0;
    }
  }
  /** Reading a partial specialisation's template arguments: `P...` is a pattern, not an expansion. */
  packPatterns = false;
  /** Reading an alias template for a pattern's arguments (its parameters' types are placeholders). */
  patternTyping = false;
  /** Parsing a generic lambda's parameters: `auto` invents template parameters (bound: their deduced types). */
  autoParams: { n: number; bound: CType[] | null } | null = null;
  /** Parsing a parameter list (a `...` after the type makes a function parameter pack), and whether one was seen. */
  inParams = false;
  sawPackDots = false;
  skipInitTail(): void { while (!this.at('}') && this.kind() !== Tok.EOF) { if (this.at('{') || this.at('(')) this.skipBalanced(); else this.p++; } }
  takeUnroll(): number | undefined { const u = this.pendingUnroll; this.pendingUnroll = undefined; return u; }
  /** Inside template arguments: a `>` or `>>` outside parentheses ends the argument list, it does not compare or shift. */
  gtEnds = false;
  /**
   * cicc takes any nesting (100,000 parentheses or blocks); our recursive descent does not: past MAX_NESTING
   * the unit goes to cicc instead of exhausting the stack.
   */
  nested<T>(parse: () => T): T {
    if (this.u.nesting >= MAX_NESTING) throw new Unsupported(`expressions or statements nested deeper than ${MAX_NESTING} levels`);
    this.u.nesting++;
    try { return parse(); } finally { this.u.nesting--; }
  }
  /** A `(` that parseCastExpr found to open an expression, not a cast (`(T(3) - x)`). */
  notCastAt = -1;
  /** Host code being read only to find the kernel template specialisations its launches need. */
  hostLaunches: FuncSym[] | null = null;
  /** With hostLaunches: the functions that host code calls (constructors and launched kernels included), in the order read. */
  hostCalls: FuncSym[] | null = null;
  /** With hostCalls: the token of each call's first site, in step with hostCalls. */
  hostCallSites: number[] | null = null;
  /**
   * With hostCalls: the names whose calls matter. A statement that names none of them and that we cannot read
   * is skipped (it calls none of them; the functions it calls are read on their own where they matter).
   */
  hostNames: Set<string> | null = null;
}

/** Installs a room's methods on Parser.prototype (each room file calls it once, when parser.ts loads it). */
export function addRoom(room: { prototype: object }): void {
  for (const k of Object.getOwnPropertyNames(room.prototype)) {
    if (k !== 'constructor') Object.defineProperty(Parser.prototype, k, Object.getOwnPropertyDescriptor(room.prototype, k)!);
  }
}

/**
 * What the parser needs of its unit (unit.ts Unit, which creates parsers): declared here, with the parser, so
 * that neither the parser nor templates.ts imports unit.ts (no cycle).
 */
export interface UnitApi {
  readonly toks: Tokens;
  index: Index;
  opts: CompileOptions;
  diags: Diagnostic[];
  errorCount: number;
  /** Expressions and statements being parsed, nested (Parser.nested). */
  nesting: number;
  /** The function whose body is being parsed (templates.ts counts nested function template instantiations from it). */
  readonly parsingBody: FuncSym | null;
  nextId: number;
  lambdaCount: number;
  dependentDecltypes: number;
  readonly consts: ConstEval;
  readonly conv: UserConversions;
  readonly recIds: RecIds;
  readonly templates: TemplatesApi;
  readonly implicitBuiltins: Map<string, FuncSym>;
  text(i: number): string;
  error(pos: Pos, num: number, message: string): void;
  fileOf(pos: Pos): string;
  isUserFile(pos: Pos): boolean;
  isKeyword(s: string): boolean;
  isSpecialization(di: number): boolean;
  isTemplateName(name: string, ns: string[]): boolean;
  templateEntries(name: string, ns: string[], kind: 'function' | 'record' | 'variable', exact?: boolean, depth?: number): number[];
  lookup(name: string, ns: string[]): Sym[];
  lookupIn(path: string[], name: string): Sym[];
  lookupPath(path: string[], name: string, ns: string[], abs: boolean): Sym[];
  resolveIn(path: string[], name: string, at?: number): { kind: 'ns'; path: string[] } | { kind: 'enum'; en: EnumDecl } | { kind: 'record'; rec: RecordDecl } | { kind: 'none' };
  declareFunction(d: DeclaratorInfo, ds: DeclSpec, attrs: Attrs, ns: string[], inAnon: boolean, fresh?: boolean): FuncSym;
  declareMethod(rec: RecordDecl, d: DeclaratorInfo, ds: DeclSpec, attrs: Attrs): FuncSym;
  declareVariable(d: DeclaratorInfo, ds: DeclSpec, attrs: Attrs, ns: string[], inAnon: boolean, p: Parser): VarSym;
  declareLocalStatic(d: DeclaratorInfo, ds: DeclSpec, attrs: Attrs, p: Parser): VarSym;
  newRecord(tag: RecordDecl['tag'], name: string, scope: string[], outer: string[]): RecordDecl;
  recordFor(tag: RecordDecl['tag'], name: string, scope: string[], outer: string[], defining: boolean): RecordDecl;
  enumFor(name: string, scope: string[], underlying: CType, scoped: boolean): EnumDecl;
  float128Record(): RecordDecl;
  newVar(name: string, ty: CType, storage: VarSym['storage'], pos: Pos): VarSym;
  noteVarUse(v: VarSym, fn: FuncSym | null, pos: Pos): void;
  lambdasIn(f: FuncSym): RecordDecl[];
  markParsed(f: FuncSym): void;
  parseBody(f: FuncSym): Stmt | null;
  prettyFunction(f: FuncSym | null): string;
  numberLiteral(pos: Pos): Expr;
  charLiteral(pos: Pos): Expr;
  stringLiteral(parts: Pos[]): Expr;
  stringFromText(text: string, pos: Pos): Expr;
  stringValue(pos: Pos): string;
}
/** What the parser needs of the unit's template instantiation (templates.ts Templates). */
export interface TemplatesApi {
  tmplRef(di: number): CType;
  deduceAndInstantiate(di: number, explicit: TArg[], args: Expr[]): FuncSym | null;
  deduceAndInstantiateMember(mt: MemberTmpl, explicit: TArg[], args: Expr[]): FuncSym | null;
  deduceAutoParams(params: CType[], n: number, args: Expr[]): CType[] | null;
  instantiateClass(di0: number, given: TArg[], p0: Parser): RecordDecl;
  instantiateAlias(di: number, given: TArg[], p0: Parser): CType;
  instantiateVariable(di: number, given: TArg[], p0: Parser, pos: number): Expr;
  moreSpecialized(a: FuncSym, b: FuncSym): boolean;
  arityOf(name: string, from: number, end: number): { min: number; max: number; initLists: number[] } | null;
  instantiateMemberAlias(mat: MemberClassTmpl, given: TArg[]): CType;
  instantiateMemberClass(mct: MemberClassTmpl, given: TArg[]): RecordDecl;
}
