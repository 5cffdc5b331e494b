/** Every relative link in the repository's Markdown resolves to a file, and every anchor to a heading (scripts/docs/links.ts). */
import { describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { checkLinks, slug } from './links';

describe('Markdown links', () => {
  it('resolve in this repository (run `npx tsx scripts/docs/links.ts` for the list)', () => {
    const broken = checkLinks(resolve(__dirname, '../..')).map((b) => `${b.file}:${b.line}: ${b.target}: ${b.why}`);
    expect(broken).toEqual([]);
  });

  it('finds a missing file, a missing anchor, and accepts headings, repeats and explicit ids', () => {
    const root = mkdtempSync(join(tmpdir(), 'links-'));
    mkdirSync(join(root, 'docs'));
    writeFileSync(join(root, 'docs', 'a.md'), '# Title\n\n## The `cache`, per head (format 2)\n\n## Notes\n\n## Notes\n\n<a id="here"></a>text\n');
    writeFileSync(
      join(root, 'README.md'),
      ['[ok](docs/a.md)', '[ok](docs/a.md#the-cache-per-head-format-2)', '[ok](docs/a.md#notes-1)', '[ok](docs/a.md#here)', '[gone](docs/b.md)', '[bad anchor](docs/a.md#nope)', '`[in code](docs/c.md)`', '[web](https://example.org/x)', '```', '[in a fence](docs/d.md)', '```'].join('\n'),
    );
    expect(checkLinks(root).map((b) => `${b.line} ${b.target}`)).toEqual(['5 docs/b.md', '6 docs/a.md#nope']);
    expect(slug("The candidates' terms and the length's roots as inputs (format 3)")).toBe('the-candidates-terms-and-the-lengths-roots-as-inputs-format-3');
  });
});
