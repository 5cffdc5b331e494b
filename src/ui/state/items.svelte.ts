/** The item browser: any skill's items at any level, from a seed, with a try-it box graded by the checker. */
import { allSkills, checkAnswer, errorMessage, LEVELS, sampleItem, type Item, type Level } from '../../core/index';

export class ItemBrowser {
  readonly skills = allSkills().map((s) => ({ id: s.id, name: s.name }));
  readonly levels = LEVELS;
  skill = $state(87);
  level = $state<Level>(2);
  seed = $state(1);
  showSolution = $state(false);
  response = $state('');
  /** The last check, with the item it was for: shown only while that item is. */
  #checked = $state<{ correct: boolean; response: string; key: string } | null>(null);
  get verdict(): { correct: boolean; response: string } | null {
    const c = this.#checked;
    return c && c.key === this.#key() ? { correct: c.correct, response: c.response } : null;
  }
  #key = () => `${this.skill}/${this.level}/${this.seed}`;
  item = $derived.by((): { item: Item | null; error: string | null } => {
    try {
      return { item: sampleItem(this.skill, this.level, this.seed), error: null };
    } catch (e) {
      return { item: null, error: errorMessage(e) };
    }
  });

  next(): void {
    this.seed += 1;
    this.response = '';
    this.#checked = null;
  }

  check(): void {
    const it = this.item.item;
    if (!it || !this.response.trim()) return;
    this.#checked = { correct: checkAnswer(it, this.response), response: this.response, key: this.#key() };
  }
}
