// bench/ptx-quality.ts counts instructions per function; scopes inside a body (call sequences, inline asm
// with `{ ... }` on the same lines as statements) must neither end the function early nor hide statements.
import { describe, it, expect } from 'vitest';
import { countPtx } from '../bench/ptx-quality';

const PTX = `.func  (.param .b64 func_retval0) helper
(
	.param .b64 helper_param_0
)
;
.visible .entry k(
	.param .u64 k_param_0
)
{
	.reg .f64 	%fd<4>;
	ld.param.u64 	%rd1, [k_param_0];
	// begin inline asm
	{ .reg .pred __$temp3;
	setp.equ.f64 __$temp3, %fd2, %fd1;
	selp.f64 %fd3, %fd2, %fd1, __$temp3;}
	// end inline asm
	{ // callseq 0, 0
	.param .b64 param0;
	st.param.f64 	[param0+0], %fd3;
	.param .b64 retval0;
	call.uni (retval0), helper, (param0);
	ld.param.f64 	%fd1, [retval0+0];
	} // callseq 0
$L__BB0_1:
	mov.b64 	{%r1, %r2}, %fd1;
	st.local.u32 	[%rd1], %r1;
	ret;

}
.func  (.param .b64 func_retval0) helper(
	.param .b64 helper_param_0
)
{
	ld.param.f64 	%fd1, [helper_param_0];
	st.param.f64 	[func_retval0+0], %fd1;
	ret;

}
`;

describe('countPtx', () => {
  it('counts the statements of each function, inside call sequences and inline asm scopes too', () => {
    expect(Object.fromEntries(countPtx(PTX))).toEqual({
      k: { insts: 9, local: 1, kind: 'entry' },
      helper: { insts: 3, local: 0, kind: 'func' },
    });
  });
});
