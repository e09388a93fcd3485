// Types of scripts/lint-arch.js (the architecture check) for test/arch.test.ts.

export interface ArrowRule {
  /** Set to leave a rule in the table without enforcing it. */
  off?: boolean;
  from: string[];
  to: string[];
  except?: string[];
  why: string;
}

export interface ArchRules {
  rooms: string[];
  maxFileLines: number;
  maxFunctionLines: number;
  arrows: ArrowRule[];
}

export interface Violation {
  kind: 'cycle' | 'arrow' | 'file-size' | 'function-size';
  file: string;
  line: number;
  message: string;
}

export const RULES: ArchRules;
export function checkArchitecture(root: string, rules?: ArchRules): Violation[];
export function formatViolation(v: Violation): string;
