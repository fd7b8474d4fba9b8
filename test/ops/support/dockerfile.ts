/** Just enough of a Dockerfile parser to test what the image would run: stages and their instructions. */
import { readFileSync } from 'node:fs';

export interface Instruction {
  op: string;
  args: string;
}

export interface Stage {
  from: string;
  name: string;
  instructions: Instruction[];
}

export function parseDockerfile(path: string): Stage[] {
  const logical = readFileSync(path, 'utf8')
    .replace(/\\\r?\n/g, ' ')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));
  const stages: Stage[] = [];
  for (const line of logical) {
    const [, op, args] = /^(\S+)\s*(.*)$/.exec(line)!;
    if (op.toUpperCase() === 'FROM') {
      const m = /^(\S+)(?:\s+AS\s+(\S+))?/i.exec(args)!;
      stages.push({ from: m[1], name: m[2] ?? '', instructions: [] });
    } else if (stages.length) {
      stages[stages.length - 1].instructions.push({ op: op.toUpperCase(), args: args.replace(/\s+/g, ' ') });
    }
  }
  return stages;
}

/** The JSON (exec) form of CMD / HEALTHCHECK … CMD. */
export function execForm(args: string): string[] {
  return JSON.parse(args.slice(args.indexOf('[')));
}

/** `ENV A=1 B=2` pairs of a stage. */
export function envOf(stage: Stage): Record<string, string> {
  const env: Record<string, string> = {};
  for (const i of stage.instructions.filter((i) => i.op === 'ENV')) {
    for (const m of i.args.matchAll(/(\w+)=("[^"]*"|\S+)/g)) env[m[1]] = m[2].replace(/^"|"$/g, '');
  }
  return env;
}
