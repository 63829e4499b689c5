// Reading a Dockerfile the way the tests need it: instructions (continuations joined, comments
// dropped) grouped by build stage.

export interface Instruction {
  keyword: string;
  /** The text after the keyword, flags included. */
  args: string;
}

export interface Stage {
  /** `FROM image AS name`: the image (or earlier stage) and the name. */
  from: string;
  name: string | null;
  instructions: Instruction[];
}

export function instructions(text: string): Instruction[] {
  return text
    .replace(/\\\r?\n/g, ' ')
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('#'))
    .map((l) => {
      const m = /^(\w+)\s+(.*)$/.exec(l);
      if (!m) throw new Error(`not a Dockerfile instruction: ${l}`);
      return { keyword: m[1]!.toUpperCase(), args: m[2]!.replace(/\s+/g, ' ') };
    });
}

export function stages(text: string): Stage[] {
  const out: Stage[] = [];
  for (const ins of instructions(text)) {
    if (ins.keyword === 'FROM') {
      const m = /^(?:--\S+\s+)*(\S+)(?:\s+AS\s+(\S+))?$/i.exec(ins.args);
      if (!m) throw new Error(`FROM ${ins.args}`);
      out.push({ from: m[1]!, name: m[2] ?? null, instructions: [] });
    } else {
      if (out.length === 0) throw new Error(`${ins.keyword} before FROM`);
      out.at(-1)!.instructions.push(ins);
    }
  }
  return out;
}

/** A stage with the instructions of the stages it is built FROM, oldest first. */
export function withBases(all: Stage[], stage: Stage): Instruction[] {
  const base = all.find((s) => s.name === stage.from && s !== stage);
  return [...(base ? withBases(all, base) : []), ...stage.instructions];
}

/** The JSON array of an exec-form instruction (CMD, ENTRYPOINT). */
export function execForm(ins: Instruction | undefined): string[] {
  if (!ins) throw new Error('no such instruction');
  return JSON.parse(ins.args) as string[];
}

export interface Copy {
  from: string | null;
  sources: string[];
  dest: string;
  flags: string[];
}

export function copyOf(ins: Instruction): Copy {
  const words = ins.args.split(' ');
  const flags = words.filter((w) => w.startsWith('--'));
  const rest = words.filter((w) => !w.startsWith('--'));
  const from = flags.find((f) => f.startsWith('--from='))?.slice('--from='.length) ?? null;
  return { from, sources: rest.slice(0, -1), dest: rest.at(-1)!, flags };
}

/**
 * The command a package.json start script ends with: `node scripts/build.mjs api && exec node
 * --flags apps/api/dist/main.mjs` runs `node --flags apps/api/dist/main.mjs` once built.
 */
export function startCommand(script: string): string[] {
  const m = /(?:^|&&)\s*exec\s+(node\s[^&|;]+)$/.exec(script.trim());
  if (!m) throw new Error(`no "exec node …" at the end of: ${script}`);
  return m[1]!.trim().split(/\s+/);
}
