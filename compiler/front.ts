// The prologue of every compile: lex and skim the unit, through the prelude cache when there is one, and
// hand the cache its token arrays back when the compile is done with them.

import type { Tokens } from './frontend/tokens';
import type { Index } from './frontend/index-types';
import { lex } from './frontend/lexer';
import { skim } from './frontend/skim';
import type { PreludeCache, PreludeLexed } from './frontend/prelude';

export interface Front {
  toks: Tokens;
  index: Index;
  /** What the prelude cache lexed (absent without a cache). */
  lexed?: PreludeLexed;
}

/** Runs `body` on the lexed and skimmed unit; `lap` is told when lexing and skimming end. */
export function withFront<T>(src: string, pre: PreludeCache | undefined, lap: (phase: 'lex' | 'skim') => void, body: (f: Front) => T): T {
  let lexed: PreludeLexed | undefined;
  try {
    lexed = pre ? pre.lex(src) : undefined;
    const toks = lexed ? lexed.tokens : lex(src);
    lap('lex');
    const index = pre && lexed ? pre.skim(lexed) : skim(toks);
    lap('skim');
    return body({ toks, index, lexed });
  } finally {
    // nothing returned refers to the tokens: their arrays can serve the next lex from the same prefix
    if (pre && lexed) pre.release(lexed);
  }
}
