import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { type LanguageCode, normalizeWord } from './question-words.ts';

/**
 * Dictionary forms of Russian and Ukrainian words, and the Russian words for Ukrainian ones, from Apertium's
 * Russian-Ukrainian data (Debian: `apertium-rus-ukr`, read by lttoolbox's `lt-proc`). Russian and Ukrainian inflect
 * their stems ("котла", "котлом" are forms of "котёл"), which no prefix of the word finds, and FreeDict has no
 * Ukrainian at all: with these, a Ukrainian question is looked up in the Russian dictionaries by its Russian words.
 * Optional: without the package (or `lt-proc`), questions are looked up by their own words.
 */

const TIMEOUT_MS = 3000;
const PAIR = 'apertium-rus-ukr';

/** Per question word, the Russian dictionary forms to look it up by (best first). */
export type LemmaHints = Map<string, string[]>;

export class ApertiumLemmas {
  private readonly dir: string;
  private disabled = false;

  private readonly log: Logger;
  private readonly ltProc: string;
  constructor(apertiumPath: string, log: Logger, ltProc = 'lt-proc') {
    this.log = log;
    this.ltProc = ltProc;
    this.dir = join(apertiumPath, PAIR);
  }

  get available(): boolean {
    return !this.disabled && existsSync(join(this.dir, 'rus-ukr.automorf.bin'));
  }

  /** Russian dictionary forms for the words of a Russian or Ukrainian question; empty for other languages. */
  async hints(words: string[], language: LanguageCode): Promise<LemmaHints> {
    const hints: LemmaHints = new Map();
    if ((language !== 'rus' && language !== 'ukr') || words.length === 0 || !this.available) return hints;
    try {
      const analyser = language === 'rus' ? 'rus-ukr.automorf.bin' : 'ukr-rus.automorf.bin';
      const analysed = parseStream(await this.run(['-w', join(this.dir, analyser)], words.join('\n')));
      if (language === 'rus') {
        for (const unit of analysed)
          if (unit.analyses.length > 0)
            hints.set(normalizeWord(unit.surface), unique(unit.analyses.map(lemmaOf)));
        return hints;
      }
      // Ukrainian: each word's first analysis through the bilingual dictionary into Russian.
      const known = analysed.filter((u) => u.analyses.length > 0);
      if (known.length === 0) return hints;
      const input = known.map((u) => `^${u.analyses[0]}$`).join('\n');
      const russian = parseStream(await this.run(['-b', join(this.dir, 'ukr-rus.autobil.bin')], input));
      known.forEach((unit, k) => {
        const forms = (russian[k]?.analyses ?? []).map(lemmaOf).filter((l) => l && !l.startsWith('@'));
        if (forms.length > 0) hints.set(normalizeWord(unit.surface), unique(forms));
      });
      return hints;
    } catch (error) {
      this.log.warn({ err: error }, 'question translation: Apertium failed, looking up the words as written');
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') this.disabled = true;
      return new Map();
    }
  }

  private run(args: string[], input: string): Promise<string> {
    return new Promise((resolve, reject) => {
      const child = spawn(this.ltProc, args, { stdio: ['pipe', 'pipe', 'ignore'], timeout: TIMEOUT_MS });
      let out = '';
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
        out += chunk;
      });
      child.on('error', reject);
      child.on('close', (code) =>
        code === 0 ? resolve(out) : reject(new Error(`lt-proc exited with ${code}`)),
      );
      child.stdin.end(`${input}\n`);
    });
  }
}

/**
 * lttoolbox's stream: one `^surface/analysis/analysis$` unit per word (`^surface/*surface$` when unknown), each
 * analysis a lemma with `<tags>`; the bilingual mode prints `^source<tags>/target<tags>$`. Per unit its analyses
 * (or, bilingual, its translations), without the surface form; unknown words have none.
 */
export function parseStream(text: string): Array<{ surface: string; analyses: string[] }> {
  const units: Array<{ surface: string; analyses: string[] }> = [];
  for (const m of text.matchAll(/\^((?:\\.|[^$\\])*)\$/g)) {
    const [surface = '', ...analyses] = m[1]!.split('/');
    units.push({ surface, analyses: analyses.filter((a) => !a.startsWith('*') && !a.startsWith('#')) });
  }
  return units;
}

/** An analysis without its tags, and without the sense number Apertium adds to homographs ("раз¹"). */
const lemmaOf = (analysis: string) =>
  analysis
    .replace(/<[^>]*>/g, '')
    .replace(/[¹²³⁴]/g, '')
    .replace(/#/g, ' ')
    .trim();

const unique = (forms: string[]) => [...new Set(forms.filter(Boolean))];
