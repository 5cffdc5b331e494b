/** Helpers the journeys share: a stored run exported from the page, and the trace the CLI writes for the same run. */
import type { Locator, Page } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Presses the row's Export button and returns the downloaded JSONL. */
export async function exportedTrace(page: Page, row: Locator): Promise<string> {
  const [download] = await Promise.all([page.waitForEvent('download'), row.getByRole('button', { name: /Export run/ }).click()]);
  return readFileSync((await download.path())!, 'utf8');
}

/**
 * Runs `cli run <args> --kt-runtime wasm --out <tmp> --quiet` and returns the trace it wrote. The
 * page computes AKT on onnxruntime-web wasm, so the CLI side of a byte-for-byte comparison does too
 * (native ONNX Runtime, the CLI's default, differs in the last float bits).
 */
export function cliTrace(args: string[]): string {
  const out = join(mkdtempSync(join(tmpdir(), 'educlaw-')), 'cli.jsonl');
  execFileSync('npx', ['tsx', 'src/cli/main.ts', 'run', ...args, '--kt-runtime', 'wasm', '--out', out, '--quiet'], { stdio: 'inherit' });
  return readFileSync(out, 'utf8');
}
