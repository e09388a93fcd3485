// The typed AST that the parser (with sema) builds for device function bodies and initialisers,
// and that codegen lowers to IR. Every expression carries its C type and whether it is an lvalue.

import type { CType, RecordDecl, TArg } from './ctype';

/** A source position: token index (file/line come from the token arrays). */
export type Pos = number;

export interface VarSym {
  kind: 'var';
  name: string;
  ty: CType;
  /** 'local' (alloca), 'param', 'global' (module global), 'static-local'. */
  storage: 'local' | 'param' | 'global' | 'static-local';
  /** CUDA memory space for globals: 'device' | 'constant' | 'shared' | 'managed' | 'generic' (host-only / unknown). */
  space: 'device' | 'constant' | 'shared' | 'managed' | 'none';
  isExtern: boolean;
  isStatic: boolean;
  isConstexpr: boolean;
  /** Enclosing namespaces (outermost first) for globals. */
  scope: string[];
  pos: Pos;
  /** Constant value when known (constexpr / const integral with constant initialiser). */
  constVal?: bigint | number;
  init?: Init | null;
  deviceBuiltin?: boolean;
  externC?: boolean;
  /** The declaring function for static locals (for mangling). */
  ownerMangled?: string;
  /** Codegen state. */
  ir?: unknown;
  id: number;
}

export interface FuncSym {
  kind: 'func';
  name: string;
  ty: CType & { k: 'func' };
  scope: string[];
  /** Parameter names and default arguments (expressions to re-parse: token index, or -1). */
  paramNames: string[];
  defaults: (number | null)[];
  isGlobal: boolean; isDevice: boolean; isHost: boolean;
  deviceBuiltin: boolean;
  isStatic: boolean;
  inAnon: boolean;
  externC: boolean;
  isInline: boolean;
  isConstexpr?: boolean;
  forceinline: boolean; noinline: boolean;
  launchBounds?: [number, number | undefined];
  /** Token range of the body ('{' .. '}'), when defined. */
  bodyStart: number; bodyEnd: number;
  /** Token index of the declarator name (for line markers / diagnostics). */
  pos: Pos;
  /** The file of the declaration (for the libdevice-math check). */
  file: string;
  /** Same entity declared more than once: all redeclarations share the first FuncSym. */
  id: number;
  ir?: unknown;
  /** Parsed body, once. */
  body?: Stmt | null;
  params?: VarSym[];
  /** C++ member function: the class, cv-qualifiers of `this`, and what kind of member it is. */
  cls?: RecordDecl;
  thisQ?: number;
  staticMember?: boolean;
  ctor?: boolean;
  dtor?: boolean;
  /** Operator function: the operator's spelling ('+', '[]', '()', 'cv' for a conversion function). */
  op?: string;
  /** Constructor: token index of the ':' starting its mem-initializer list (or -1). */
  initStart?: number;
  /** `= default` / `= delete`. */
  defaulted?: boolean; deleted?: boolean;
  /** The implicit object parameter, once the body is parsed. */
  thisVar?: VarSym;
  /** Template arguments of a function template specialisation (mangled after the name). */
  targs?: TArg[];
  /** Names of the template parameters in scope for the body (instantiations, members of class templates). */
  tscope?: Map<string, Sym>;
}

export type Sym = VarSym | FuncSym
  | { kind: 'type'; name: string; ty: CType }
  | { kind: 'enumconst'; name: string; ty: CType; value: bigint }
  | { kind: 'namespace'; name: string; path: string[] }
  /** A non-static data member named inside its class's member functions (implicit this->). */
  | { kind: 'field'; name: string; ty: CType; rec: RecordDecl };

export type CastKind = 'load' | 'decay' | 'fdecay' | 'int' | 'i2f' | 'f2i' | 'f2f' | 'tobool' | 'p2i' | 'i2p' | 'p2p' | 'null' | 'noop' | 'void';

export type Expr = { ty: CType; lv: boolean; pos: Pos } & (
  | { k: 'int'; v: bigint }
  | { k: 'fp'; v: number }
  | { k: 'str'; bytes: Uint8Array }
  | { k: 'var'; sym: VarSym }
  | { k: 'func'; sym: FuncSym }
  | { k: 'bvar'; name: string; field: string | null }           // threadIdx.x, warpSize
  | { k: 'bvarbase'; name: string }                             // threadIdx (before .x)
  | { k: 'cast'; ck: CastKind; e: Expr }
  | { k: 'unary'; op: '-' | '~' | '!' | '+'; e: Expr }
  | { k: 'deref'; e: Expr }
  | { k: 'addr'; e: Expr }
  | { k: 'incdec'; op: '++' | '--'; prefix: boolean; e: Expr }
  | { k: 'bin'; op: string; a: Expr; b: Expr }                   // arithmetic/compare/logical; a,b already converted
  | { k: 'ptradd'; p: Expr; i: Expr; neg: boolean }               // pointer ± integer
  | { k: 'ptrdiff'; a: Expr; b: Expr; elem: CType }
  | { k: 'assign'; a: Expr; b: Expr }
  | { k: 'cassign'; op: string; a: Expr; b: Expr; opTy: CType }  // compound: a = (T)((opTy)a op b)
  | { k: 'cond'; c: Expr; a: Expr; b: Expr }
  | { k: 'comma'; a: Expr; b: Expr }
  | { k: 'call'; f: FuncSym | null; callee: Expr | null; args: Expr[]; thisPtr?: Expr }
  | { k: 'construct'; ctor: FuncSym; args: Expr[] }                // class prvalue made by a constructor
  | { k: 'member'; e: Expr; field: { name: string; ty: CType; offset: number; irIndex: number }; arrow: boolean }
  | { k: 'index'; base: Expr; idx: Expr }                         // base is a pointer rvalue
  | { k: 'asm'; text: string; outs: { c: string; e: Expr }[]; ins: { c: string; e: Expr }[]; clobbers: string[]; vol: boolean }
  | { k: 'initlist'; items: Init[] }
  | { k: 'temp'; init: Init }                                     // materialised temporary (e.g. const ref to rvalue)
  | { k: 'pnew'; place: Expr; init: Init | null; count?: Expr }   // placement new: construct at `place` (count elements for new[]), value is the pointer
  | { k: 'new'; elem: CType; count: Expr | null; init: Init | null; alloc?: FuncSym } // heap new (malloc or the class's operator new); count (size_t) for new[]
  | { k: 'delete'; e: Expr; array: boolean }                       // destructor(s) then free
  | { k: 'fname' }                                                // __func__/__PRETTY_FUNCTION__ (ty array of char)
  | { k: 'error' }
);

/** An initialiser for an object of a known type: expression, or a (possibly nested) list with designated positions. */
export type Init =
  | { k: 'expr'; e: Expr }
  | { k: 'list'; ty: CType; items: { off: number; path: number[]; init: Init }[]; pos: Pos }
  | { k: 'zero'; ty: CType }
  | { k: 'ctor'; ty: CType; f: FuncSym; args: Expr[] };

export type Stmt =
  | { k: 'expr'; e: Expr; pos: Pos }
  | { k: 'decl'; v: VarSym; init: Init | null; pos: Pos }
  | { k: 'block'; body: Stmt[] }
  | { k: 'if'; c: Expr; t: Stmt; e: Stmt | null; pos: Pos }
  | { k: 'while'; c: Expr; body: Stmt; pos: Pos; unroll?: number }
  | { k: 'do'; c: Expr; body: Stmt; pos: Pos; unroll?: number }
  | { k: 'for'; init: Stmt | null; c: Expr | null; inc: Expr | null; body: Stmt; pos: Pos; unroll?: number }
  | { k: 'switch'; c: Expr; body: Stmt; cases: { v: bigint | null; id: number }[]; pos: Pos }
  | { k: 'case'; id: number; pos: Pos }
  | { k: 'break'; pos: Pos }
  | { k: 'continue'; pos: Pos }
  | { k: 'return'; e: Expr | null; init?: Init; pos: Pos }
  | { k: 'goto'; label: string; pos: Pos }
  | { k: 'label'; label: string; pos: Pos }
  | { k: 'init'; target: Expr; init: Init; pos: Pos }            // construct/initialise a member or base in place
  | { k: 'null' };
