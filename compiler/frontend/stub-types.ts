// What the front end tells the host-stub generator about the unit's device entities.
// The stub (`--stub_file_name`) is #included by cudafe++'s .cudafe1.cpp, so it is compiled by the
// host gcc: names and types must be spelled as host C++ sees them.

/** A C++ type spelled for host code. */
export type HostType =
  | { k: 'builtin'; name: string; const?: boolean; volatile?: boolean }        // 'int', 'unsigned int', 'float', 'long long', 'bool', ...
  | { k: 'ptr'; to: HostType; const?: boolean; volatile?: boolean; restrict?: boolean }
  | { k: 'ref'; to: HostType; rvalue?: boolean }
  | { k: 'record'; tag: 'struct' | 'class' | 'union'; qualName: string; const?: boolean; volatile?: boolean; // qualName without leading '::', e.g. 'P', 'ns::P'
      /** A class template specialisation: its host spelling (`Acc<float>`) and the alias the stub declares for it (`_Z3AccIfE`). */
      template?: { spelling: string; alias: string; /** an extended lambda's closure (cudafe++'s wrapper) */ closure?: boolean;
        /** its alias is declared after the others (a closure in a member function defined in its class) */ late?: boolean } }
  | { k: 'enum'; qualName: string; const?: boolean; volatile?: boolean }
  | { k: 'typedef'; qualName: string; target: HostType; const?: boolean; volatile?: boolean }
  /** An array (only behind a pointer in a kernel parameter: `int (*p)[4]`). */
  | { k: 'array'; elem: HostType; n: number }
  /** A function type (only behind a pointer: `float (*f)(float)`). */
  | { k: 'func'; ret: HostType; params: HostType[]; variadic: boolean };

export interface StubParam {
  type: HostType;
  size: number;
  align: number;
  /** Byte offset in the kernel parameter buffer (each parameter aligned to its own alignment). */
  offset: number;
}

export interface StubKernel {
  /** Itanium-mangled name (also the PTX .entry name). */
  mangled: string;
  /** Unqualified source name, e.g. 'saxpy'. */
  name: string;
  /** Enclosing namespaces from outermost, e.g. ['ns'], or ['_NV_ANON_NAMESPACE'] for an anonymous one. */
  namespaces: string[];
  /** `static` (internal linkage) kernel. */
  isStatic: boolean;
  /** File and line of the kernel's definition (for `# N "file"` markers). */
  file: string;
  line: number;
  params: StubParam[];
  /** A specialisation of a kernel template: its arguments as the launch cast names them (`float`, `(int)4`)
   *  and as the wrapper specialisation names them (`float`, `4`). */
  templateArgs?: { cast: string[]; plain: string[] };
}

export interface StubVariable {
  /** Unqualified name and enclosing namespaces, as for kernels. */
  name: string;
  namespaces: string[];
  /** Name of the device symbol in the PTX (mangled when in a namespace or static). */
  deviceName: string;
  size: number;
  isConstant: boolean;   // __constant__
  isManaged: boolean;    // __managed__
  isStatic: boolean;
  /** True for `extern __shared__`-like variables that are never registered. */
  isShared: boolean;
  /** A variable template's specialisation: how host code names it (`(::ns::v< ::ns::T> )`, in parentheses for the macro). */
  hostName?: string;
}

export interface StubInput {
  kernels: StubKernel[];      // in declaration order
  variables: StubVariable[];  // __device__/__constant__/__managed__ variables in declaration order
}
