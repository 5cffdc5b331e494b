/**
 * Journey: a first visit. Land on the home page (only the page's shell and the landing are
 * fetched), read what the benchmark measures and its three uses, run the demo (the no-tutor control
 * and the three reference tutors on one learner, in the page), read the finding, open a contrast in
 * the trace viewer, and follow a button to Play. Screenshots at phone, tablet and desktop widths;
 * axe on the landing and on the finding.
 */
import { test, expect, type Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';

async function axe(page: Page) {
  const a11y = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
  expect(a11y.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

test('a first visit: land, run the demo, read the finding, follow a button to Play', async ({ page }) => {
  test.setTimeout(360_000);
  const scripts: { url: string; bytes: number }[] = [];
  page.on('response', async (r) => {
    if (r.request().resourceType() !== 'script') return;
    scripts.push({ url: r.url(), bytes: (await r.body().catch(() => Buffer.alloc(0))).length });
  });
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 2, name: /Does this tutor make a student learn/ })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Home' })).toHaveAttribute('aria-current', 'page');
  // The three uses, one button each.
  const uses = page.getByRole('region', { name: 'Three ways to use it' });
  for (const [name, hash] of [['Open the Benchmark', '#benchmark'], ['Play the tutor', '#play'], ['Set up a study', '#classroom']] as const) await expect(uses.getByRole('link', { name })).toHaveAttribute('href', hash);
  // The landing loads without the engine: no script of the page's state or the learner model yet.
  await page.waitForLoadState('networkidle');
  const before = scripts.map((s) => s.url.split('/').pop()!);
  expect(before.some((u) => /^(core|app\.svelte|LabView|persona-seeds|vega|chart)-/.test(u))).toBe(false);
  expect(scripts.reduce((n, s) => n + s.bytes, 0)).toBeLessThan(200_000);
  await axe(page);
  for (const [w, h] of [[390, 844], [820, 1180], [1280, 900]] as const) {
    await page.setViewportSize({ width: w, height: h });
    await page.screenshot({ path: `test-results/home-landing-${w}.png`, fullPage: true });
  }

  await page.getByTestId('run-demo').click();
  await expect(page.getByTestId('demo-progress')).toBeVisible();
  const finding = page.getByTestId('demo-finding');
  await expect(finding).toBeVisible({ timeout: 300_000 });
  await expect(finding).toContainText(/The answer-giver answered \d+ of \d+ help requests, gave the answer away in \d+% of its turns/);
  const table = page.getByRole('table', { name: "The demo's finding" });
  await expect(table.locator('tbody tr')).toHaveCount(4);
  await expect(table.locator('tr[data-tutor="silent"] [data-col="added"]')).toHaveText('(the control)');
  for (const t of ['answer-giver', 'withholder', 'planner']) await expect(table.locator(`tr[data-tutor="${t}"] [data-col="added"]`)).toHaveText(/^[+-]\d+\.\d\d$/);
  const contrast = page.getByTestId('demo-contrast');
  await expect(contrast).toContainText('Gives the answer away.');
  await expect(contrast).toContainText('Teaches.');
  await expect(page.getByRole('figure', { name: "Sam's solve rate by day, per tutor" }).locator('canvas')).toHaveAttribute('data-series', '4');
  await axe(page);
  for (const [w, h] of [[390, 844], [820, 1180], [1280, 900]] as const) {
    await page.setViewportSize({ width: w, height: h });
    await page.screenshot({ path: `test-results/home-demo-${w}.png`, fullPage: true });
  }

  // The answer given away, in the trace viewer: its day, marked.
  await contrast.getByRole('button', { name: 'See it in the trace' }).first().click();
  await expect(page).toHaveURL(/#lab$/);
  const viewer = page.getByRole('region', { name: 'Trace viewer' });
  await expect(viewer.locator('li.highlight, [data-seq].highlight').first()).toContainText(/gave an answer away/);

  // Back home: the finding is still there (the runs are stored), and a button leads on to Play.
  await page.getByRole('link', { name: 'Home' }).click();
  await expect(page.getByTestId('demo-finding')).toBeVisible();
  await page.getByRole('navigation', { name: 'Where next' }).getByRole('link', { name: 'Teach Sam yourself' }).click();
  await expect(page).toHaveURL(/#play$/);
  await expect(page.getByRole('heading', { name: 'Play the tutor' })).toBeVisible();
});
