/**
 * Turns the `--scenarios` arguments of a sweep into a sorted list of files. Each argument is a
 * file, a directory (its *.yaml / *.yml files, not recursive) or a pattern whose last path part
 * has * or ? wildcards (e.g. 'scenarios/*--after-school.yaml'; quote it so the shell leaves it
 * alone, or let the shell expand it). Nothing matching is an error, not an empty sweep.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

const isYaml = (f: string) => /\.ya?ml$/i.test(f);

function globToRegExp(pattern: string): RegExp {
  const esc = pattern.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*').replace(/\?/g, '[^/]');
  return new RegExp(`^${esc}$`);
}

export function expandScenarioPaths(args: readonly string[]): string[] {
  const out = new Set<string>();
  for (const arg of args) {
    if (/[*?]/.test(arg)) {
      const dir = dirname(arg);
      if (/[*?]/.test(dir)) throw new Error(`--scenarios ${arg}: only the file-name part of a pattern may have wildcards`);
      if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new Error(`--scenarios ${arg}: no directory ${dir}`);
      const re = globToRegExp(basename(arg));
      const hits = readdirSync(dir).filter((f) => re.test(f) && statSync(join(dir, f)).isFile());
      if (hits.length === 0) throw new Error(`--scenarios ${arg}: no file matches`);
      for (const f of hits) out.add(join(dir, f));
    } else if (existsSync(arg) && statSync(arg).isDirectory()) {
      const hits = readdirSync(arg).filter((f) => isYaml(f) && statSync(join(arg, f)).isFile());
      if (hits.length === 0) throw new Error(`--scenarios ${arg}: no .yaml files in this directory`);
      for (const f of hits) out.add(join(arg, f));
    } else if (existsSync(arg)) {
      out.add(arg);
    } else {
      throw new Error(`--scenarios ${arg}: no such file or directory`);
    }
  }
  return [...out].sort();
}
