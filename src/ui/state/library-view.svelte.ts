/**
 * How the Lab shows the run library (Svelte 5 runes): the filter, sort, grouping and page size the
 * person chose, and deleting with Undo. One per run library, kept across tab switches
 * (`libraryViewFor`), like the rest of the app state.
 *
 * Delete is immediate (the run leaves the store at once, so other tabs see it go), and the deleted
 * record and its events are kept in memory for a few seconds: Undo puts them back with the store's
 * own writes (putRun, appendEvents) under the same key, so the run comes back where it was. A run
 * whose events cannot be read (a damaged trace) cannot be restored, so deleting it asks first.
 */
import { errorMessage, type TraceEvent } from '../../core/index';
import type { StoredRun } from '../../adapters/browser/run-store';
import type { RunLibrary } from './library.svelte';
import { NO_FILTER, type FactKey, type GroupBy, type RunFilter, type SortKey } from './run-facts';

/** Rows shown at first and added by "Show more". */
export const PAGE_SIZE = 50;
/** How long Undo is offered (it waits while the pointer or focus is on it). */
export const UNDO_MS = 10_000;

/** What the view needs from the Lab: deleting (which also clears the selection) and selecting. */
export interface LibraryActions {
  remove(key: string): Promise<void>;
  select(key: string): Promise<void>;
  readonly selectedKey: string | null;
}

export interface DeletedRun {
  run: StoredRun;
  events: TraceEvent[];
  wasSelected: boolean;
}

export class LibraryView {
  text = $state('');
  facets = $state<Partial<Record<FactKey, string>>>({});
  sort = $state<SortKey>('newest');
  group = $state<GroupBy>('none');
  limit = $state(PAGE_SIZE);
  /** The last deletion, while it can be undone. */
  deleted = $state.raw<DeletedRun | null>(null);
  /** Why a delete or an undo did not happen. */
  error = $state<string | null>(null);
  readonly #library: RunLibrary;
  readonly #actions: LibraryActions;
  #timer: ReturnType<typeof setTimeout> | null = null;
  readonly #held = new Set<'pointer' | 'focus'>();
  readonly #undoMs: number;

  constructor(library: RunLibrary, actions: LibraryActions, opts: { undoMs?: number } = {}) {
    this.#library = library;
    this.#actions = actions;
    this.#undoMs = opts.undoMs ?? UNDO_MS;
  }

  get filter(): RunFilter {
    return { text: this.text, facets: this.facets };
  }

  setFacet(key: FactKey, value: string): void {
    const next = { ...this.facets };
    if (value) next[key] = value;
    else delete next[key];
    this.facets = next;
    this.limit = PAGE_SIZE;
  }

  setText(text: string): void {
    this.text = text;
    this.limit = PAGE_SIZE;
  }

  clearFilter(): void {
    this.text = NO_FILTER.text;
    this.facets = {};
    this.limit = PAGE_SIZE;
  }

  showMore(): void {
    this.limit += PAGE_SIZE;
  }

  showAll(total: number): void {
    this.limit = Math.max(total, PAGE_SIZE);
  }

  /** Deletes a run, keeping it (record and events) in memory so Undo can put it back. Resolves true when it was deleted. */
  async remove(key: string): Promise<boolean> {
    this.error = null;
    const run = this.#library.runs.find((r) => r.key === key);
    if (!run) return false;
    let events: TraceEvent[] | null = null;
    try {
      events = await this.#library.getEvents(key);
    } catch (e) {
      // Without its events it could not come back: ask, as there will be no Undo.
      const ok = typeof confirm === 'function' && confirm(`This run's stored trace cannot be read (${errorMessage(e)}), so deleting it cannot be undone. Delete it?`);
      if (!ok) return false;
    }
    const wasSelected = this.#actions.selectedKey === key;
    await this.#actions.remove(key);
    if (this.#library.runs.some((r) => r.key === key)) return false; // the Lab said why
    this.#finish();
    if (events) {
      this.deleted = { run, events, wasSelected };
      this.#arm();
    }
    return true;
  }

  /** Puts the last deleted run back (same key, record and events). */
  async undo(): Promise<string | null> {
    const d = this.deleted;
    if (!d) return null;
    this.#finish();
    try {
      await this.#library.store.appendEvents(d.run.key, d.events);
      await this.#library.store.putRun(d.run);
      await this.#library.refresh();
      announceChange();
      if (d.wasSelected) await this.#actions.select(d.run.key);
      return d.run.key;
    } catch (e) {
      this.error = `Could not restore the run: ${errorMessage(e)}`;
      return null;
    }
  }

  /** Drops the kept copy now (the deletion stays). */
  dismiss(): void {
    this.#finish();
  }

  /** While held (pointer or focus on the Undo bar) the offer does not run out. */
  hold(by: 'pointer' | 'focus', on: boolean): void {
    if (on) this.#held.add(by);
    else this.#held.delete(by);
    if (this.#held.size > 0) this.#clearTimer();
    else if (this.deleted && this.#timer === null) this.#arm();
  }

  #arm(): void {
    this.#clearTimer();
    if (this.#held.size > 0) return;
    this.#timer = setTimeout(() => this.#finish(), this.#undoMs);
  }

  #clearTimer(): void {
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#timer = null;
  }

  #finish(): void {
    this.#clearTimer();
    this.#held.clear();
    this.deleted = null;
  }
}

/** Tells the other tabs of the app the stored runs changed (the run library listens on this channel and re-lists). */
function announceChange(): void {
  if (typeof BroadcastChannel === 'undefined') return;
  const ch = new BroadcastChannel('educlaw-lab.runs');
  ch.postMessage({ type: 'changed' });
  ch.close();
}

const views = new WeakMap<RunLibrary, LibraryView>();

/** The library's view state (made on first use, then kept, so a tab switch keeps the filter). */
export function libraryViewFor(library: RunLibrary, actions: LibraryActions): LibraryView {
  let v = views.get(library);
  if (!v) views.set(library, (v = new LibraryView(library, actions)));
  return v;
}
