/**
 * The Benchmark form opens on a first benchmark (the three reference tutors and the no-tutor control
 * on the built-in student, seeds 1,2,3: src/ui/state/benchmark.svelte.ts). A journey that plans a
 * benchmark of its own ticks exactly its built-in tutors and starts from no scenario.
 */
import type { Page } from '@playwright/test';

export const BUILT_IN_TUTORS = ['answer-giver', 'withholder', 'planner'] as const;

export async function benchmarkTutors(page: Page, tutors: readonly (typeof BUILT_IN_TUTORS)[number][]): Promise<void> {
  for (const t of BUILT_IN_TUTORS) await page.getByRole('checkbox', { name: new RegExp(`^${t} `) }).setChecked(tutors.includes(t));
  await page.locator('input[data-scenario="default-prealgebra-after-school"]').uncheck();
}
