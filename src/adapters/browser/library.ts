/**
 * The 55 library scenarios bundled with the page. Vite lists the files at build time and loads
 * each one's text on demand (a separate small chunk per file), so the page does not download
 * scenarios it does not run.
 */
import { parseLibraryId, parseScenario, type Scenario } from '../../core/index';

const FILES = import.meta.glob('../../../scenarios/*--*.yaml', { query: '?raw', import: 'default', eager: false }) as Record<string, () => Promise<string>>;

/** File names (e.g. "gamer--after-school.yaml") of the bundled library scenarios. */
export function bundledLibraryFiles(): string[] {
  return Object.keys(FILES)
    .map((p) => p.replace(/^.*\//, ''))
    .filter((f) => parseLibraryId(f) !== null)
    .sort();
}

/** Loads and validates one bundled scenario; errors name the file, field and line like the CLI's. */
export async function loadBundledScenario(file: string): Promise<Scenario> {
  const key = Object.keys(FILES).find((p) => p.endsWith(`/${file}`));
  if (!key) throw new Error(`no bundled scenario ${file}`);
  return parseScenario(await FILES[key]!(), `scenarios/${file}`);
}
