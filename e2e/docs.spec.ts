import { test, expect, type Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { benchmarkTutors } from './bench-form';

/** Console errors and failed requests of a page, collected from now on. */
function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`console: ${m.text()}`);
  });
  page.on('pageerror', (e) => errors.push(`page: ${e.message}`));
  page.on('response', (r) => {
    if (r.status() >= 400) errors.push(`${r.status()} ${r.url()}`);
  });
  return errors;
}

test('the docs in the page: from an axis score to its section in metrics.md, from a results section to analyses.md', async ({ page }) => {
  test.setTimeout(180_000);
  const errors = watchErrors(page);
  // A static host (vite preview) is not a classroom server: the page asks nothing that fails.
  await page.goto('/');
  await page.goto('/#lab');
  await expect(page.getByRole('heading', { name: 'EduClaw Lab' })).toBeVisible();
  await page.getByRole('checkbox', { name: /Then run the same student with no tutor/ }).uncheck();
  await page.getByLabel('Learner model', { exact: true }).selectOption('bkt');
  await page.getByRole('button', { name: 'Start run' }).click();
  await expect(page.getByTestId('progress-text')).toHaveText('Done', { timeout: 90_000 });
  expect(errors).toEqual([]);

  // The leakage axis's name links to its section of metrics.md, bundled with the page.
  const table = page.getByRole('table', { name: 'Axis scores' });
  await table.screenshot({ path: 'test-results/docs-axis-table.png' });
  await table.getByRole('link', { name: 'Answer leakage' }).click();
  await expect(page).toHaveURL(/#docs\/metrics\/answer-leakage$/);
  const doc = page.getByTestId('doc');
  const heading = doc.getByRole('heading', { name: 'Answer leakage', exact: true });
  await expect(heading).toBeVisible();
  await expect(heading).toBeInViewport();
  await expect(heading).toBeFocused();
  // Raw HTML is never passed through; repository paths are text, links between docs stay in the page.
  await expect(doc.locator('script, iframe, img')).toHaveCount(0);
  await expect(doc.locator('a[href$=".ts"], a[href^="../"]')).toHaveCount(0);
  for (const w of [1280, 820, 390]) {
    await page.setViewportSize({ width: w, height: 900 });
    await heading.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `test-results/docs-metrics-${w}.png` });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
  const a11y = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
  expect(a11y.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);

  // Another doc from the list, then back: the Lab's run is still there.
  await page.getByRole('navigation', { name: 'Docs' }).getByRole('link', { name: /^Validity/ }).click();
  await expect(doc).toHaveAttribute('data-doc', 'validity');
  await page.goBack();
  await expect(heading).toBeVisible();

  // The Benchmark results: each section links to its part of analyses.md.
  await page.goto('/#benchmark');
  await benchmarkTutors(page, ['withholder']);
  await page.getByLabel('Seeds', { exact: true }).fill('1');
  await page.getByLabel('Learner model').selectOption('bkt');
  await page.getByLabel('Days', { exact: true }).fill('3');
  await page.getByLabel('adversarial × after-school').check();
  await page.getByRole('button', { name: /^Start benchmark/ }).click();
  await expect(page.getByTestId('bench-progress')).toHaveText(/^Done: \d+ runs?$/, { timeout: 90_000 });
  const results = page.locator('section[aria-labelledby="results-title"]');
  const failure = results.locator('section[data-section="failure-modes"]');
  await expect(failure).toBeVisible();
  await failure.getByRole('link', { name: 'How this section is computed (docs)' }).click();
  await expect(page).toHaveURL(/#docs\/analyses\/failure-modes$/);
  const fm = page.getByTestId('doc').getByRole('heading', { name: 'Failure modes', exact: true });
  await expect(fm).toBeVisible();
  await expect(fm).toBeInViewport();
  await page.setViewportSize({ width: 390, height: 900 });
  await page.screenshot({ path: 'test-results/docs-analyses-390.png' });
  expect(errors).toEqual([]);
});
