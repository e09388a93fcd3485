// The skimmer's index of top-level declarations (see docs/ARCHITECTURE.md, the front end).
// The skimmer walks namespaces and linkage blocks, records every declaration's token range, and
// never parses bodies. The parser uses it to find, by name, the declarations device code reaches.

/** Bit flags for DeclEntry.flags. CUDA attributes come from `__attribute__((device))` etc. in the .ii. */
export const enum DeclFlag {
  Device = 1 << 0,
  Host = 1 << 1,
  Global = 1 << 2,          // __global__ kernel
  DeviceBuiltin = 1 << 3,   // __attribute__((device_builtin))
  Constant = 1 << 4,        // __constant__ variable
  Shared = 1 << 5,          // __shared__ variable
  Managed = 1 << 6,         // __managed__ variable
  Static = 1 << 7,
  Inline = 1 << 8,
  Extern = 1 << 9,
  Template = 1 << 10,       // preceded by template<...>
  ExternC = 1 << 11,        // inside extern "C" { } or declared extern "C"
  HasBody = 1 << 12,        // function definition (bodyStart/bodyEnd valid)
  Typedef = 1 << 13,
  Constexpr = 1 << 14,
  InAnonNamespace = 1 << 15,
  Forceinline = 1 << 16,    // __forceinline__ → __attribute__((always_inline))
  Noinline = 1 << 17,       // __attribute__((noinline)) or the `__noinline__` keyword
  CudartBuiltin = 1 << 18,  // __attribute__((cudart_builtin))
  ExplicitInst = 1 << 19,   // explicit instantiation: `template` not followed by `<` (incl. `extern template`)
}

export type DeclKind =
  | 'function' | 'variable' | 'record' | 'enum' | 'typedef' | 'using' | 'namespace-alias'
  | 'static_assert' | 'asm' | 'other'
  /** `using namespace N;`: name '', qualifier = the nominated namespace as written (no leading '::'). */
  | 'using-directive'
  /** An enumerator of an unscoped enum at namespace scope: qualifier = the enum's name ('' if anonymous),
   *  first/last = the enumerator's own tokens, bodyStart/bodyEnd = the enum's braces. */
  | 'enumerator';

export interface DeclEntry {
  kind: DeclKind;
  /** Declared name (unqualified; for an out-of-line member definition `A::f`, the last component). '' if none. */
  name: string;
  /** Enclosing namespace path, e.g. '' (global), 'std', 'std::__detail'; anonymous namespaces appear as '(anonymous)'. */
  scope: string;
  /** For `A::f` style qualified declarator names, the qualifier ('A'); '' otherwise. Template arguments are
   *  dropped: `A<T>::f` → 'A', `ns::B<int>::C::g` → 'ns::B::C'. For a using-declaration `using ::x::y;` the
   *  nested name as written ('x'). */
  qualifier: string;
  /** Token range of the whole declaration, inclusive: from its first token (template/attribute/decl-specifier) to the closing '}' or ';'. */
  first: number;
  last: number;
  /** Function body: indices of '{' and the matching '}' (-1 when no body). For records/enums: the member braces. */
  bodyStart: number;
  bodyEnd: number;
  flags: number;  // DeclFlag bits
}

export interface Index {
  decls: DeclEntry[];
  /** name → indices into decls (in source order) */
  byName: Map<string, number[]>;
  /** Every namespace seen, by full path ('std', 'std::__cxx11', '(anonymous)', 'a::(anonymous)'): whether it was
   *  declared `inline` (then its members are also members of the enclosing namespace, e.g. std::__cxx11,
   *  std::chrono::_V2) and the '{' token of each of its blocks. */
  namespaces?: Map<string, { inline: boolean; opens: number[] }>;
  /** Structural problems found while skimming (unbalanced brackets, missing ';'); tok = token index. */
  errors?: { tok: number; message: string }[];
}
