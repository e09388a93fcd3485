// Keyword sets and operator precedences the parser reads tokens by.



export const BIN_PREC: Record<string, number> = {
  '||': 1, '&&': 2, '|': 3, '^': 4, '&': 5, '==': 6, '!=': 6, '<': 7, '>': 7, '<=': 7, '>=': 7,
  '<<': 8, '>>': 8, '+': 9, '-': 9, '*': 10, '/': 10, '%': 10,
};
/** Keywords followed by a parenthesised operand (not a function's parameter list). */
export const OPERAND_KW = new Set(['sizeof', 'alignof', '__alignof__', '__alignof', 'decltype', '__decltype', 'noexcept', 'alignas', '__typeof__', 'typeof']);
export const ASSIGN_OPS = new Set(['=', '+=', '-=', '*=', '/=', '%=', '<<=', '>>=', '&=', '|=', '^=']);
export const TYPE_KW = new Set(['void', 'bool', 'char', 'short', 'int', 'long', 'float', 'double', 'signed', 'unsigned', '__signed__', '__signed',
  'wchar_t', 'char16_t', 'char32_t', '__int128', 'struct', 'class', 'union', 'enum', 'const', 'volatile', '__const', '__volatile__',
  'typename', 'decltype', '__typeof__', 'typeof', '__builtin_va_list', '_Float128', '__float128', '__fp16', '_Float16', 'auto', '__underlying_type']);
/**
 * Nested expressions, unary operators and statements we parse (Parser.nested); deeper units fall back. Far beyond
 * hand-written code, well within the stack (about 400 parentheses exhaust it).
 */
export const MAX_NESTING = 512;

export const SPEC_KW = new Set(['typedef', 'extern', 'static', 'inline', '__inline__', '__inline', 'constexpr', 'register', 'virtual', 'explicit', 'friend',
  'mutable', 'thread_local', '__thread', '__extension__', '__attribute__', '__noinline__', '__attribute', '__restrict__', '__restrict', 'consteval', 'constinit', 'alignas', '__declspec']);

/** The words a fundamental type is spelled with (`unsigned long long`). */
export const BUILTIN_TYPE_WORDS = new Set(['bool', 'char', 'short', 'int', 'long', 'signed', 'unsigned', 'float', 'double', 'wchar_t', 'char16_t', 'char32_t', '__int128']);
