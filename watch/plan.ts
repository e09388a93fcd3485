// The device steps of one unit, learned from `nvcc --dryrun` on the unit's own build command: nvcc prints
// every step it would run (environment settings, preprocessor, cudafe++, cicc per target arch, ptxas, …).
// Watch re-runs the preprocessing steps exactly as printed and sends each cicc call to the daemon, so the
// .ii bytes and the cicc flags are those of the real build: the real build's requests are cache hits.

import { spawnSync } from 'node:child_process';
import { splitRealCicc } from '../cicc/job';

export interface PlanStep {
  /** 'run': a preprocessing step (preprocessor, cudafe++); 'cicc': a device compile, given to the daemon. */
  kind: 'run' | 'cicc';
  argv: string[];
}

export interface UnitPlan {
  /** Environment of the steps (nvcc's `#$ NAME=value` lines over the caller's environment). */
  env: NodeJS.ProcessEnv;
  steps: PlanStep[];
  /** The module id cudafe++ wrote on the unit's last run (see run-unit.ts). */
  lastModuleId?: string;
}

/** Splits a dry-run command line the way sh would for nvcc's quoting: "…" (with \-escapes), bare words, $NAME. */
export function splitCommand(line: string, vars: NodeJS.ProcessEnv): string[] {
  const out: string[] = [];
  let cur = '';
  let inWord = false;
  let i = 0;
  const expand = (): string => {
    const m = /^\$(\{([A-Za-z_]\w*)\}|([A-Za-z_]\w*))/.exec(line.slice(i));
    if (!m) { i++; return '$'; }
    i += m[0].length;
    return vars[m[2] ?? m[3]] ?? '';
  };
  while (i < line.length) {
    const c = line[i];
    if (c === ' ' || c === '\t') {
      if (inWord) { out.push(cur); cur = ''; inWord = false; }
      i++;
    } else if (c === '"') {
      inWord = true;
      i++;
      while (i < line.length && line[i] !== '"') {
        if (line[i] === '\\' && i + 1 < line.length && '"\\$`'.includes(line[i + 1])) { cur += line[i + 1]; i += 2; } else if (line[i] === '$') cur += expand();
        else cur += line[i++];
      }
      i++;
    } else if (c === "'") {
      inWord = true;
      const end = line.indexOf("'", i + 1);
      cur += line.slice(i + 1, end < 0 ? line.length : end);
      i = end < 0 ? line.length : end + 1;
    } else if (c === '\\' && i + 1 < line.length) {
      inWord = true; cur += line[i + 1]; i += 2;
    } else if (c === '$') {
      inWord = true; cur += expand();
    } else {
      inWord = true; cur += c; i++;
    }
  }
  if (inWord) out.push(cur);
  return out;
}

const PROGRAM = (a: string) => a.slice(a.lastIndexOf('/') + 1);

/** Parses nvcc's dry-run listing (stderr lines starting with `#$ `). */
export function parsePlan(listing: string, baseEnv: NodeJS.ProcessEnv): UnitPlan {
  const env: NodeJS.ProcessEnv = { ...baseEnv };
  const steps: PlanStep[] = [];
  for (const raw of listing.split('\n')) {
    if (!raw.startsWith('#$ ')) continue;
    const line = raw.slice(3).trim();
    const assign = /^([A-Za-z_]\w*)=(.*)$/.exec(line);
    if (assign) {
      // nvcc's settings are shell assignments; their values are quoted word lists (INCLUDES="-I…").
      env[assign[1]] = splitCommand(assign[2], env).join(' ');
      continue;
    }
    const argv = splitCommand(line, env);
    if (argv.length === 0) continue;
    const prog = PROGRAM(argv[0]);
    if (prog === 'cicc' || prog === 'ptxd-cicc' || splitRealCicc(argv.slice(1)).realCicc !== undefined) {
      steps.push({ kind: 'cicc', argv });
    } else if (prog === 'cudafe++' || argv.includes('-E')) {
      steps.push({ kind: 'run', argv });
    }
    // ptxas, fatbinary, the host compile, rm: not needed to produce the device unit.
  }
  return { env, steps };
}

/**
 * Runs `nvcc … --dryrun` for a build command with temp files under `tmp`; throws with nvcc's message
 * when it refuses the command.
 */
export function planUnit(command: string[], cwd: string, tmp: string, env: NodeJS.ProcessEnv): UnitPlan {
  const r = spawnSync(command[0], [...command.slice(1), '--dryrun'], {
    cwd, env: { ...env, TMPDIR: tmp, NVCC_APPEND_FLAGS: env.NVCC_APPEND_FLAGS ?? '', NVCC_PREPEND_FLAGS: env.NVCC_PREPEND_FLAGS ?? '' },
    encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'],
  });
  if (r.error) throw new Error(`cannot run ${command[0]}: ${r.error.message}`);
  const listing = `${r.stdout}\n${r.stderr}`;
  const plan = parsePlan(listing, env);
  if (r.status !== 0 || !plan.steps.some(s => s.kind === 'cicc')) {
    throw new Error(`nvcc --dryrun found no device compile (exit ${r.status}): ${r.stderr.trim().split('\n').filter(l => !l.startsWith('#$')).join(' ')}`);
  }
  return plan;
}
