import { test, expect } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';

test('browse the item bank: typeset math, figures, the teacher view, and answers checked', async ({ page }) => {
  await page.goto('/#items');
  const shown = page.getByRole('region', { name: 'Item' });

  // An equation item: math is typeset by KaTeX, not shown as raw LaTeX.
  await page.getByLabel('Skill').selectOption('87');
  await expect(shown.locator('.stem .katex').first()).toBeVisible();
  await expect(shown.locator('.stem')).not.toContainText('$');

  // The teacher view shows the answer; the checker grades what a student types.
  await page.getByLabel('Teacher view (answer, solution, hints)').check();
  const answer = (await shown.locator('.teacher .answer .value').innerText()).trim().split('\n')[0]!;
  await page.getByLabel('Your answer').fill('99999');
  await page.getByRole('button', { name: 'Check' }).click();
  await expect(page.getByTestId('item-verdict')).toContainText('Not correct');
  await page.getByLabel('Your answer').fill(answer);
  await page.getByRole('button', { name: 'Check' }).click();
  await expect(page.getByTestId('item-verdict')).toHaveText(/^Correct/);
  // The verdict belongs to that item: another skill's item shows none.
  await page.getByLabel('Skill').selectOption('1');
  await expect(page.getByTestId('item-verdict')).toHaveCount(0);
  await page.getByLabel('Skill').selectOption('87');
  await expect(page.getByTestId('item-verdict')).toHaveText(/^Correct/);

  // A picture skill renders its own (sanitised) SVG with a text alternative.
  await page.getByLabel('Skill').selectOption('2');
  const fig = shown.locator('.figure [role="img"]');
  await expect(fig).toBeVisible();
  await expect(fig.locator('svg')).toHaveCount(1);
  expect((await fig.getAttribute('aria-label'))!.length).toBeGreaterThan(10);

  // Next item changes the seed and the question.
  const before = await shown.locator('.stem').innerText();
  await page.getByRole('button', { name: 'Next item' }).click();
  await expect(shown.locator('.stem')).not.toHaveText(before);
  await page.screenshot({ path: 'test-results/items.png', fullPage: true });

  const a11y = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
  expect(a11y.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
});
