// The emulator's executed-instruction counts (the GPU-free speed proxy of bench/exec-count.ts), on hand-written
// PTX whose counts are worked out in the comments: one issue per instruction a warp executes, and per-thread
// counts that add the active lanes of each issue.

import { describe, it, expect } from 'vitest';
import { Machine } from './machine';
import { perKernel } from '../../bench/exec-count';

// 2 instructions, then 3 per iteration while %r2 < n (a bottom-tested loop: at least one iteration), then ret.
// With a lane-dependent bound (n + tid.x % 2) the lanes leave the loop at different times.
const PTX = `.version 8.0
.target sm_90
.address_size 64
.visible .entry k(.param .u32 k_n)
{
  .reg .b32 %r<8>;
  .reg .pred %p<4>;
  ld.param.u32 %r1, [k_n];
  mov.u32 %r2, 0;
$L__loop:
  add.s32 %r2, %r2, 1;
  setp.lt.u32 %p1, %r2, %r1;
  @%p1 bra $L__loop;
  ret;
}
.visible .entry v(.param .u32 v_n)
{
  .reg .b32 %r<8>;
  .reg .pred %p<4>;
  ld.param.u32 %r1, [v_n];
  mov.u32 %r3, %tid.x;
  and.b32 %r4, %r3, 1;
  add.s32 %r1, %r1, %r4;
  mov.u32 %r2, 0;
$L__loop:
  add.s32 %r2, %r2, 1;
  setp.lt.u32 %p1, %r2, %r1;
  @%p1 bra $L__loop;
  ret;
}
`;

function launch(kernel: string, threads: number, n: number) {
  const m = new Machine(PTX);
  const params = new Uint8Array(8);
  new DataView(params.buffer).setUint32(0, n, true);
  return m.launch(kernel, { grid: { x: 1, y: 1, z: 1 }, block: { x: threads, y: 1, z: 1 }, params });
}

describe('emulator: executed-instruction counts', () => {
  it('one issue per instruction per warp; thread counts add the active lanes', () => {
    // n = 5: 2 + 3*5 + 1 = 18 issues per warp
    const one = launch('k', 32, 5);
    expect(one.steps).toBe(18);
    expect(one.laneInsts).toBe(18 * 32);
    // 40 threads: two warps (32 and 8 lanes), 18 issues each; 18 instructions per thread
    const two = launch('k', 40, 5);
    expect(two.steps).toBe(36);
    expect(two.laneInsts).toBe(18 * 40);
  });

  it('a divergent loop issues the longest lane\'s iterations; thread counts follow each lane', () => {
    // odd lanes run n + 1 = 4 iterations, even lanes 3: the warp issues 5 + 3*4 + 1 = 18 instructions
    // (the even lanes' ret waits for the reconvergence, then issues once for all); per thread: even lanes
    // 5 + 3*3 + 1 = 15, odd lanes 5 + 3*4 + 1 = 18
    const r = launch('v', 32, 3);
    expect(r.laneInsts).toBe(16 * 15 + 16 * 18);
    expect(r.steps).toBe(18);
  });

  it('perKernel sums the launches of each kernel', () => {
    const m = perKernel([{ kernel: 'a', steps: 3, laneInsts: 96 }, { kernel: 'b', steps: 1, laneInsts: 1 }, { kernel: 'a', steps: 4, laneInsts: 100 }]);
    expect([...m]).toEqual([['a', { steps: 7, lanes: 196 }], ['b', { steps: 1, lanes: 1 }]]);
  });
});
