import { readdirSync, statSync } from 'node:fs';
import type { Logger } from 'pino';
import { dictdFiles, readDictd, readDictdIndex, readDictdIndexInSlices, readDictdInSlices } from './dictd.ts';
import { Lexicon } from './lexicon.ts';
import { type LanguageCode, scriptOf } from './question-words.ts';
import { type Glossary, tradeGlossary } from './trade-glossary.ts';

/**
 * The bilingual dictionaries installed on the machine (FreeDict's dictd files, named `freedict-SRC-TGT`, in
 * DICTIONARY_PATH: Debian's `dict-freedict-*` packages put them in /usr/share/dictd), each read on first use and kept
 * for the life of the process as a compact lookup. A pair is used in its own direction, and reversed when the other
 * direction has no dictionary or only a small one, so that Russian finds German through the German-Russian
 * dictionary; where no dictionary connects two languages, English and French are the pivots (FreeDict connects French
 * to Russian, Polish, Portuguese and Italian by larger dictionaries than English does: "ryczałt" → "forfait" →
 * "Pauschale").
 */

/** A reversed dictionary larger than this (compressed) is not read: the forward one of the pair is enough. */
const MAX_REVERSED_BYTES = 8 * 1024 * 1024;
const PIVOTS: LanguageCode[] = ['eng', 'fra'];
/**
 * Whether `via` is a go-between for questions in `source`: a pivot serves the languages that are no pivot and the
 * pivots before it in PIVOTS (English's questions go direct: through French they only gained noise, bench:answer on
 * the Handwerk set, English questions search@5 0.55 → 0.43; French's go through English as before).
 */
const pivotFor = (source: LanguageCode, via: LanguageCode) =>
  !PIVOTS.includes(source) || PIVOTS.indexOf(source) > PIVOTS.indexOf(via);
/**
 * A language without dictionaries of its own is looked up in a close one's (FreeDict has no Ukrainian: many
 * Ukrainian words are Russian ones or differ in a vowel, which `lookupForms` varies).
 */
const CLOSE_LANGUAGE: Record<LanguageCode, LanguageCode> = { ukr: 'rus' };

export interface Route {
  /** Two lexicons, through the pivot language. */
  steps: Lexicon[];
  pivot: LanguageCode;
}

interface Installed {
  name: string;
  source: LanguageCode;
  target: LanguageCode;
  bytes: number;
}

export class Dictionaries {
  private readonly installed: Installed[];
  private readonly lexicons = new Map<string, Lexicon>();
  private readonly loading = new Map<string, Promise<void>>();

  private readonly dir: string;
  /** Words of the trade that the dictionaries lack, between any two languages (see trade-glossary.ts). */
  private readonly glossary: Glossary;
  constructor(dir: string, glossary: Glossary = tradeGlossary) {
    this.dir = dir;
    this.installed = scan(dir);
    this.glossary = glossary;
  }

  /** Whether any dictionary was found. */
  get available(): boolean {
    return this.installed.length > 0;
  }

  /** The installed pairs, as `src-tgt`. */
  get pairs(): string[] {
    return this.installed.map((d) => `${d.source}-${d.target}`);
  }

  /** Languages a question can be translated from, into `target`. */
  sourcesFor(target: LanguageCode): Set<LanguageCode> {
    const sources = new Set<LanguageCode>();
    for (const d of this.installed) {
      if (d.target === target) sources.add(d.source);
      if (d.source === target) sources.add(d.target);
    }
    for (const pivot of PIVOTS)
      if (sources.has(pivot) || target === pivot)
        for (const d of this.installed) {
          if (d.target === pivot) sources.add(d.source);
          if (d.source === pivot) sources.add(d.target);
        }
    for (const [language, close] of Object.entries(CLOSE_LANGUAGE))
      if (sources.has(close)) sources.add(language);
    sources.delete(target);
    return sources;
  }

  /** The lexicons that lead from one language to the other: directly, and through the pivots. */
  routes(source: LanguageCode, target: LanguageCode): { direct: Lexicon[]; pivot: Route[] } {
    const close = CLOSE_LANGUAGE[source];
    if (close && !this.installed.some((d) => d.source === source || d.target === source)) {
      // The trade's words in the language itself, the rest through the close language's dictionaries.
      const routes = this.routes(close, target);
      return { direct: [...this.glossaryOf(source, target), ...routes.direct], pivot: routes.pivot };
    }
    const direct = [...this.glossaryOf(source, target), ...this.direct(source, target)];
    const pivot: Route[] = [];
    for (const via of PIVOTS) {
      if (source === via || target === via || !pivotFor(source, via)) continue;
      for (const first of this.direct(source, via))
        for (const second of this.direct(via, target)) pivot.push({ steps: [first, second], pivot: via });
    }
    return { direct, pivot };
  }

  /**
   * The lexicons of the other direction, to check a translation by translating it back ("krank" gives "sick" back,
   * "Kotze" does not): through a language's close one as `routes` does.
   */
  backward(source: LanguageCode, target: LanguageCode): Lexicon[] {
    const close = CLOSE_LANGUAGE[source];
    if (close && !this.installed.some((d) => d.source === source || d.target === source))
      return [...this.glossaryOf(target, source), ...this.backward(close, target)];
    return [...this.glossaryOf(target, source), ...this.direct(target, source)];
  }

  /**
   * Reads, ahead of `routes` and `backward` for a question from `source` into `target`, the lexicons they use,
   * asynchronously and a slice at a time: the first question in a language does not stall the server's other
   * requests for the seconds a large dictionary takes to read (FreeDict's English-German index has 460,000 lines).
   */
  async prepare(source: LanguageCode, target: LanguageCode): Promise<void> {
    const close = CLOSE_LANGUAGE[source];
    const from =
      close && !this.installed.some((d) => d.source === source || d.target === source) ? close : source;
    const pairs: Array<[LanguageCode, LanguageCode]> = [
      [from, target],
      [target, from],
    ];
    for (const via of PIVOTS)
      if (from !== via && target !== via && pivotFor(from, via))
        pairs.push([from, via], [via, target], [target, via]);
    for (const [s, t] of pairs)
      for (const { d, direction } of this.plan(s, t)) await this.loadInSlices(d, direction);
  }

  /** The glossary's lexicon of the pair, when it has one: ahead of the dictionaries, never a go-between. */
  private glossaryOf(source: LanguageCode, target: LanguageCode): Lexicon[] {
    const lexicon = this.glossary(source, target);
    return lexicon ? [lexicon] : [];
  }

  private direct(source: LanguageCode, target: LanguageCode): Lexicon[] {
    return this.plan(source, target).map(({ d, direction }) => this.load(d, direction));
  }

  /** The dictionaries that translate one way, and in which direction each is read. */
  private plan(source: LanguageCode, target: LanguageCode): Array<{ d: Installed; direction: Direction }> {
    const out: Array<{ d: Installed; direction: Direction }> = [];
    const forward = this.installed.find((d) => d.source === source && d.target === target);
    const backward = this.installed.find((d) => d.source === target && d.target === source);
    if (forward) out.push({ d: forward, direction: 'forward' });
    if (backward && (!forward || backward.bytes <= MAX_REVERSED_BYTES))
      out.push({ d: backward, direction: 'reversed' });
    return out;
  }

  private load(d: Installed, direction: Direction): Lexicon {
    const key = `${d.name}:${direction}`;
    let lexicon = this.lexicons.get(key);
    if (!lexicon) {
      const files = dictdFiles(this.dir, d.name);
      if (!files) return Lexicon.fromPairs([]);
      // Either way the translations are in the dictionary's target language, and written in its script.
      lexicon =
        direction === 'forward'
          ? Lexicon.indexed(readDictdIndex(files.index), files.dict, d.source, scriptOf(d.target))
          : Lexicon.reversed(readDictd(files), d.target, scriptOf(d.target));
      this.lexicons.set(key, lexicon);
    }
    return lexicon;
  }

  /** `load`, asynchronously; one reading per lexicon however many questions wait for it. */
  private loadInSlices(d: Installed, direction: Direction): Promise<void> {
    const key = `${d.name}:${direction}`;
    if (this.lexicons.has(key)) return Promise.resolve();
    let loading = this.loading.get(key);
    if (!loading) {
      loading = (async () => {
        const files = dictdFiles(this.dir, d.name);
        if (!files) return;
        const lexicon =
          direction === 'forward'
            ? await Lexicon.indexedInSlices(
                await readDictdIndexInSlices(files.index),
                files.dict,
                d.source,
                scriptOf(d.target),
              )
            : await Lexicon.reversedInSlices(await readDictdInSlices(files), d.target, scriptOf(d.target));
        if (!this.lexicons.has(key)) this.lexicons.set(key, lexicon);
      })().finally(() => this.loading.delete(key));
      this.loading.set(key, loading);
    }
    return loading;
  }
}

type Direction = 'forward' | 'reversed';

function scan(dir: string): Installed[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const out: Installed[] = [];
  for (const file of names) {
    const m = /^(freedict-([a-z]{3})-([a-z]{3}))\.index$/.exec(file);
    if (!m) continue;
    const files = dictdFiles(dir, m[1]!);
    if (!files) continue;
    out.push({ name: m[1]!, source: m[2]!, target: m[3]!, bytes: statSync(files.dict).size });
  }
  return out;
}

const opened = new Map<string, Dictionaries | null>();

/**
 * The dictionaries of a folder, scanned once per process (each read only when a question needs it); null, with one
 * log line that says how to install them, when the folder has none.
 */
export function installedDictionaries(dir: string, log: Logger): Dictionaries | null {
  if (opened.has(dir)) return opened.get(dir)!;
  const found = new Dictionaries(dir);
  if (found.available) {
    log.info({ dir, pairs: found.pairs }, 'question translation: dictionaries found');
  } else {
    log.warn(
      { dir },
      'question translation: no FreeDict dictionaries found, so questions in another language than the documents ' +
        'find only the words they share with them (install the dict-freedict-* packages of ' +
        "scripts/freedict-pairs.txt, see the README's apt line, or set DICTIONARY_PATH)",
    );
  }
  opened.set(dir, found.available ? found : null);
  return opened.get(dir)!;
}
