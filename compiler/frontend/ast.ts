// The typed AST that the parser (with sema) builds for device function bodies and initialisers,
// and that codegen lowers to IR. Every expression carries its C type and whether it is an lvalue.
// The C types (helpers in ctype.ts) are declared here with the symbols they refer to: one type graph, one file.


import type { Type as IRType } from '../middle/ir';

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
  /** A constructor declared `noexcept` or `noexcept(true)` (what __is_nothrow_constructible asks). */
  noexcept?: boolean;
  forceinline: boolean; noinline: boolean;
  launchBounds?: [number, number | undefined];
  /** A function template specialisation's level in the chain of instantiations that made it (templates.ts; EDG stops at 200). */
  instDepth?: number;
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

// ------------------------------------------------------------------ C types (ctype.ts has their helpers)
export type IntName = 'char' | 'signed char' | 'unsigned char' | 'short' | 'unsigned short' | 'int' | 'unsigned int'
  | 'long' | 'unsigned long' | 'long long' | 'unsigned long long' | 'wchar_t' | 'char16_t' | 'char32_t' | '__int128' | 'unsigned __int128';

export interface Field {
  name: string;
  ty: CType;
  offset: number;
  /** index of the field in the IR struct type (-1: none, reach it by byte offset) */
  irIndex: number;
  /** A base-class subobject (name ''), not a named member. */
  isBase?: boolean;
  /** Token index of a default member initialiser (`int a = 0;` / `int a{0};`). */
  defaultInit?: number;
  /** An anonymous struct/union member (name ''): its members are found as members of the enclosing class. */
  anon?: boolean;
  /** A bitfield: its width, and its first bit within the storage unit of its type at `offset`. */
  bits?: number;
  bitOff?: number;
  /** An unnamed bitfield (name ''): padding only; never initialised or looked up, no effect on the class's alignment. */
  pad?: boolean;
}

export interface RecordDecl {
  tag: 'struct' | 'class' | 'union';
  name: string;             // '' for anonymous
  /** Enclosing namespaces, outermost first ('(anonymous)' for an anonymous namespace). */
  scope: string[];
  /** Records nested in a record: the enclosing record names. */
  outer: string[];
  complete: boolean;
  fields: Field[];
  size: number;
  align: number;
  ir: IRType | null;
  /** Typedef name that named an anonymous struct (for mangling, `typedef struct {..} X;`). */
  typedefName?: string;
  hasMethods: boolean;
  /** C++: member functions (incl. constructors, destructor, operators, static member functions). */
  methods?: FuncSym[];
  /** Direct base classes with their subobject offsets (filled by layout). */
  bases?: { rec: RecordDecl; field: Field }[];
  /**
   * Direct virtual base classes (`: virtual public B`), kept apart from `bases`: names are found in them, but the
   * class has no layout of ours (noLayout), so device code that needs its size, members or conversions falls back.
   */
  vbases?: RecordDecl[];
  /** Why the class has no layout (a virtual base, a member of such a class): its size and IR type are unsupported. */
  noLayout?: string;
  /** A base class we could not read (a system header's): a name not found in the class may be its. */
  badBase?: string;
  /** Member typedefs / nested classes and enums, and static data members, by name. */
  types?: Map<string, CType>;
  statics?: Map<string, VarSym>;
  /** Enumerators of unscoped enums declared in the class (`enum { num_elements = size };`): class members. */
  enumerators?: Map<string, { ty: CType; value: bigint }>;
  /** Names of member templates (calls to them are unsupported for now). */
  memberTemplates?: Set<string>;
  /** Member function templates we can instantiate: their tokens (from `template`) and the class's template scope. */
  mtmpls?: MemberTmpl[];
  /** Template arguments, for a class template specialisation (mangled as <template-args>). */
  targs?: TArg[];
  /** The record whose scope encloses this one (nested classes), for lookup. */
  parent?: RecordDecl;
  /**
   * A lambda's closure type in a function body: mangled as a local name `Z<function>EUl<params>E[n]_`,
   * n counting the function's earlier lambdas with the same parameter types (`siblings`, in source order).
   */
  lambda?: { fn: FuncSym; pos: number; params: CType[]; siblings: RecordDecl[]; ext?: ExtendedLambda };
}

/**
 * An nvcc extended lambda (`[=] __device__ (...) {...}` or `__host__ __device__`, written in host code): host code
 * sees its closure through cudafe++'s wrapper templates (`__nv_dl_wrapper_t`, `__nv_hdl_wrapper_t`), which the host
 * stub spells and its kernel stub names mangle (`Unvdl`, `Unvdtl`, `Unvhdl`); `tag` numbers the enclosing
 * function's extended lambdas from 1 in source order.
 */
export interface ExtendedLambda {
  hd: boolean; tag: number; mutable: boolean; noexcept: boolean; trailingRet: CType | null;
  /** The captured members' types as EDG names them (cv-qualifiers of the captured variable kept), in member order. */
  capTypes?: CType[];
  /** Written in a member function defined in its class: EDG declares its stub alias after all the others. */
  late?: boolean;
}

/** A member function template declared in a class body. */
export interface MemberTmpl {
  name: string; start: number; end: number; rec: RecordDecl; tscope: Map<string, unknown> | null;
  /** The specialisation deduced from these call arguments (null: none fits); set where the unit is at hand. */
  instantiate?: (args: unknown[]) => FuncSym | null;
}

/** A template argument: a type or an integral value (with its type). */
export type TArg = { k: 'type'; ty: CType } | { k: 'val'; ty: CType; v: bigint } | { k: 'pack'; args: TArg[] };

export interface EnumDecl {
  name: string;
  scope: string[];
  underlying: CType;
  scoped: boolean;
  consts: Map<string, bigint>;
  typedefName?: string;
}

export type CType =
  | { readonly k: 'void'; readonly q: number }
  | { readonly k: 'bool'; readonly q: number }
  | { readonly k: 'int'; readonly name: IntName; readonly bits: number; readonly signed: boolean; readonly q: number }
  | { readonly k: 'float'; readonly q: number }
  | { readonly k: 'double'; readonly q: number }
  | { readonly k: 'ldouble'; readonly q: number }
  | { readonly k: 'nullptr'; readonly q: number }
  | { readonly k: 'ptr'; readonly to: CType; readonly q: number }
  | { readonly k: 'ref'; readonly to: CType; readonly q: number; readonly rv?: boolean }
  | { readonly k: 'array'; readonly elem: CType; readonly n: number | null; readonly q: number }
  | { readonly k: 'func'; readonly ret: CType; readonly params: readonly CType[]; readonly variadic: boolean; readonly q: number }
  | { readonly k: 'record'; readonly rec: RecordDecl; readonly q: number }
  | { readonly k: 'enum'; readonly en: EnumDecl; readonly q: number }
  | { readonly k: 'error'; readonly q: number };
