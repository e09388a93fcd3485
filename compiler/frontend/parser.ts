// Recursive-descent parser with sema actions: declarations (namespace scope, on demand), function
// bodies, statements and expressions. Produces the typed AST of ast.ts. This entry loads the Parser class
// (parser-core.ts) and every room that adds its methods (see parser-core.ts's header for why rooms).

import './parser-lookup';
import './parser-traits';
import './parser-decls';
import './parser-records';
import './parser-targs';
import './parser-lambda';
import './parser-init';
import './parser-stmts';
import './parser-overload';
import './parser-exprs';
import './parser-primary';

export { Parser, type UnitApi, type TemplatesApi } from './parser-core';
export { SyntaxAbort, valPackSym, packValsOf, valPackParamOf, type TmplRef, type Attrs, type DeclSpec, type DeclaratorInfo } from './parser-types';
export { sameSignature, ownCopyCtor, ownMoveCtor, classAllocFn, ctorsOf, ctorTmplsOf } from './parser-classes';
