import { it } from 'vitest';
import { SPECS } from './diff/specs';
import { differential } from './diff/harness';
it('one', () => {
  const spec = SPECS.find(s => s.name === process.env.SPEC)!;
  const d = differential(spec);
  console.log(JSON.stringify(d.mismatches, null, 1).slice(0, 3000));
});
