// The pure parts of `ptxd watch`: nvcc dry-run parsing, line-marker includes, preprocessor and cudafe++
// diagnostics. Inputs are verbatim nvcc 13.0 / gcc / cudafe++ output (the watch test runs the real tools).

import { describe, it, expect } from 'vitest';
import { parsePlan, splitCommand } from '../watch/plan';
import { includedFiles, preprocessorDiagnostics } from '../watch/run-unit';

// From `nvcc --cicc-prefix=/p/bin/ptxd-cicc -arch=sm_75 -x cu -c /tmp/w/a.cu -o a.o --dryrun` (shortened).
const DRYRUN = [
  '#$ _NVVM_BRANCH_=nvvm',
  '#$ CICC_PATH=/usr/local/cuda/bin/../nvvm/bin',
  '#$ INCLUDES="-I/usr/local/cuda/bin/../targets/x86_64-linux/include"  ',
  '#$ gcc -D__CUDA_ARCH_LIST__=750 -E -x c++ -D__CUDACC__ -include "cuda_runtime.h" -m64 "/tmp/w/a.cu" -o "/tmp/tmpxft_1-5_a.cpp4.ii" ',
  '#$ cudafe++ --c++17 --orig_src_file_name "/tmp/w/a.cu" --gen_module_id_file --module_id_file_name "/tmp/tmpxft_1-4_a.module_id" "/tmp/tmpxft_1-5_a.cpp4.ii" ',
  '#$ gcc -D__CUDA_ARCH__=750 -D__CUDA_ARCH_LIST__=750 -E -x c++ "-DMSG=\\"hi there\\"" -m64 "/tmp/w/a.cu" -o "/tmp/tmpxft_1-8_a.cpp1.ii" ',
  '#$ /p/bin/ptxd-cicc "$CICC_PATH/cicc" --c++17 -arch compute_75 -m64 --module_id_file_name "/tmp/tmpxft_1-4_a.module_id" "/tmp/tmpxft_1-8_a.cpp1.ii" -o "/tmp/tmpxft_1-7_a.ptx"',
  '#$ ptxas -arch=sm_75 -m64  "/tmp/tmpxft_1-7_a.ptx"  -o "/tmp/tmpxft_1-9_a.sm_75.cubin" ',
  '#$ fatbinary -64 "--image3=kind=elf,sm=75,file=/tmp/tmpxft_1-9_a.sm_75.cubin" --embedded-fatbin="/tmp/tmpxft_1-3_a.fatbin.c" ',
  '#$ gcc -D__CUDA_ARCH__=750 -c -x c++ -m64 "/tmp/tmpxft_1-6_a.cudafe1.cpp" -o "a.o" ',
].join('\n');

describe('watch: nvcc dry run', () => {
  it('splits quoted words, escaped quotes and $VARS like sh', () => {
    expect(splitCommand('a "b c" "-DX=\\"y z\\"" $V/x "${V}" \'$V\'', { V: '/v' })).toEqual(['a', 'b c', '-DX="y z"', '/v/x', '/v', '$V']);
  });

  it('keeps the preprocessing and cicc steps with the environment nvcc sets, drops the rest', () => {
    const p = parsePlan(DRYRUN, { PATH: '/bin' });
    expect(p.env.CICC_PATH).toBe('/usr/local/cuda/bin/../nvvm/bin');
    expect(p.env.INCLUDES).toBe('-I/usr/local/cuda/bin/../targets/x86_64-linux/include');
    expect(p.env.PATH).toBe('/bin');
    expect(p.steps.map(s => [s.kind, s.argv[0]])).toEqual([['run', 'gcc'], ['run', 'cudafe++'], ['run', 'gcc'], ['cicc', '/p/bin/ptxd-cicc']]);
    expect(p.steps[2].argv).toContain('-DMSG="hi there"');
    expect(p.steps[3].argv[1]).toBe('/usr/local/cuda/bin/../nvvm/bin/cicc');
    expect(p.steps[3].argv.slice(-3)).toEqual(['/tmp/tmpxft_1-8_a.cpp1.ii', '-o', '/tmp/tmpxft_1-7_a.ptx']);
  });
});

describe('watch: includes and diagnostics', () => {
  it('line markers name the files a unit read; toolkit, system and built-in names are left out', () => {
    const ii = '# 0 "/tmp/w/a.cu"\n# 0 "<built-in>"\n# 0 "<command-line>"\n# 1 "/usr/local/cuda/include/cuda_runtime.h" 1\n' +
      '# 1 "/usr/include/stdio.h" 1 3 4\n# 1 "/tmp/w/a.cu"\n# 1 "common.h" 1\n# 2 "../inc/x y.h" 1\nint x;\n# 3 "/tmp/w/a.cu" 2\n';
    expect(includedFiles(ii, '/tmp/w')).toEqual(['/tmp/inc/x y.h', '/tmp/w/a.cu', '/tmp/w/common.h']);
  });

  it('gcc and cudafe++ (EDG) errors become diagnostics with file and line', () => {
    const gcc = preprocessorDiagnostics('/tmp/w/a.cu:1:10: fatal error: common.h: No such file or directory\n    1 | #include "common.h"\n      |          ^~~~~~~~~~\ncompilation terminated.\n');
    expect(gcc).toEqual([{ severity: 'error', file: '/tmp/w/a.cu', line: 1, col: 10, message: 'common.h: No such file or directory' }]);
    const edg = preprocessorDiagnostics('/tmp/w/b.cu(5): error: expected an expression\n    if (i < n) x[i] = x[i] + 3.0f +;\n                                   ^\n\n' +
      '/tmp/w/b.cu(7): warning #177-D: variable "q" was declared but never referenced\n\n1 error detected in the compilation of "/tmp/w/b.cu".\n');
    expect(edg).toEqual([
      { severity: 'error', file: '/tmp/w/b.cu', line: 5, message: 'expected an expression', sourceLine: '  if (i < n) x[i] = x[i] + 3.0f +;', col: 34 },
      { severity: 'warning', file: '/tmp/w/b.cu', line: 7, message: 'variable "q" was declared but never referenced' },
    ]);
    expect(preprocessorDiagnostics('something odd\n')).toEqual([{ severity: 'error', file: '', line: 0, message: 'something odd' }]);
  });
});
