import type { Logger } from 'pino';
import type { AppContext } from '../../../app-context.ts';
import type { DbOrTx } from '../../../db/database.ts';
import type { ProviderConnection } from '../../ai-providers/model-client.ts';
import { type ScopeLanguage, scopeLanguages } from '../scope-languages.ts';
import type { SearchScope } from '../search-scope.ts';
import { ApertiumLemmas } from './apertium-lemmas.ts';
import { type Dictionaries, installedDictionaries } from './dictionaries.ts';
import { MAX_ALTERNATIVES, translateByDictionaries } from './dictionary-translation.ts';
import { languageName, type ModelTranslationInput, translateByModel } from './model-translation.ts';
import { type LanguageCode, wordsOf } from './question-words.ts';
import { sourceLanguage } from './source-language.ts';
import type { QueryTranslation } from './translation.ts';
import { preferUsedTranslations } from './used-translations.ts';

/** A language with less than this share of the scope's passages is not translated for. */
const MIN_LANGUAGE_SHARE = 0.05;
/** At most this many passage languages are translated for (the largest ones). */
const MAX_TARGETS = 3;
/** A word's dictionary senses the company's documents are asked about, of which MAX_ALTERNATIVES are kept. */
const CANDIDATE_ALTERNATIVES = 24;

export interface TranslationDeps {
  db: DbOrTx;
  /** Null when no dictionary is installed. */
  dictionaries: Dictionaries | null;
  /** Russian and Ukrainian dictionary forms (Apertium), when installed. */
  lemmas?: ApertiumLemmas | null;
  log: Logger;
  /** The company's model, when its chat has one: it translates first, the dictionaries are the fallback. */
  model?: ModelTranslationInput | null;
}

/** What translating a question needs of the process: the dictionaries, and the company's model if it has one. */
export function translationDeps(
  ctx: AppContext,
  connection: ProviderConnection | null = null,
): TranslationDeps {
  return {
    db: ctx.db,
    dictionaries: installedDictionaries(ctx.config.DICTIONARY_PATH, ctx.log),
    lemmas: apertiumLemmas(ctx.config.APERTIUM_PATH, ctx.log),
    log: ctx.log,
    model: connection
      ? {
          connection,
          fetch: ctx.outbound.fetch,
          log: ctx.log,
          timeoutMs: ctx.config.QUESTION_TRANSLATION_TIMEOUT_SECONDS * 1000,
        }
      : null,
  };
}

/**
 * The question carried into each language of the passages it may find (the languages their files were detected in),
 * other than its own: by the company's model when there is one (one short call, with a timeout), else, or when that
 * fails, word by word through the installed dictionaries (a sense the documents use kept, used-translations.ts).
 * Empty when the question is in the documents' language, or nothing could translate it. A short follow-up is read
 * with the question before it (`context`); without a model, each is translated from its own language when the two
 * differ ("And the charge?" after "Wie oft wird der Heizkessel gewartet?").
 */
export async function translateQuestion(
  deps: TranslationDeps,
  scope: SearchScope,
  question: string,
  /** The scope's languages when the caller read them already (`scopeLanguages`). */
  languages?: ScopeLanguage[],
  /** The question before a short follow-up, read with it. */
  context?: string,
): Promise<QueryTranslation[]> {
  if (!deps.dictionaries?.available && !deps.model) return [];
  const targets = passageLanguages(languages ?? (await scopeLanguages(deps.db, scope)));
  const text = context ? `${question} ${context}` : question;
  const out: QueryTranslation[] = [];
  for (const target of targets) {
    const candidates = new Set<LanguageCode>([target, ...(deps.dictionaries?.sourcesFor(target) ?? [])]);
    if (deps.model)
      for (const l of ['ara', 'deu', 'eng', 'fra', 'ita', 'pol', 'por', 'rus', 'tur', 'ukr'])
        candidates.add(l);
    const source = sourceLanguage(text, candidates);
    // A part whose language cannot be told ("F28?") is read in the language of the whole.
    const own = context && !deps.model ? (sourceLanguage(question, candidates) ?? source) : source;
    const before = context && !deps.model ? (sourceLanguage(context, candidates) ?? source) : source;
    const translation =
      own === before
        ? await translateText(deps, scope, text, source, target)
        : await usedOnly(
            deps,
            scope,
            together(
              await byDictionaries(deps, question, own, target),
              await byDictionaries(deps, context!, before, target),
            ),
          );
    if (translation) out.push(translation);
  }
  return out;
}

/** A text in `source` carried into `target` (null when it is in it already, or nothing translates it). */
async function translateText(
  deps: TranslationDeps,
  scope: SearchScope,
  text: string,
  source: LanguageCode | null,
  target: LanguageCode,
): Promise<QueryTranslation | null> {
  if (source === target) return null;
  const byModel =
    deps.model && languageName(target) ? await translateByModel(deps.model, text, source, target) : null;
  return byModel ?? usedOnly(deps, scope, await byDictionaries(deps, text, source, target));
}

/** A text translated word by word through the dictionaries, every candidate sense kept (see `usedOnly`). */
async function byDictionaries(
  deps: TranslationDeps,
  text: string,
  source: LanguageCode | null,
  target: LanguageCode,
): Promise<QueryTranslation | null> {
  if (!source || source === target || !deps.dictionaries) return null;
  await deps.dictionaries.prepare(source, target);
  const hints = (await deps.lemmas?.hints(wordsOf(text), source)) ?? new Map();
  return translateByDictionaries(deps.dictionaries, text, source, target, hints, CANDIDATE_ALTERNATIVES);
}

/** A dictionary translation's senses cut to MAX_ALTERNATIVES, those the company's passages use kept (one statement). */
async function usedOnly(
  deps: TranslationDeps,
  scope: SearchScope,
  translation: QueryTranslation | null,
): Promise<QueryTranslation | null> {
  return translation && preferUsedTranslations(deps.db, scope.companyId, translation, MAX_ALTERNATIVES);
}

/** The translations of a follow-up and of the question before it, as one (the follow-up's language first). */
function together(a: QueryTranslation | null, b: QueryTranslation | null): QueryTranslation | null {
  if (!a || !b) return a ?? b;
  return {
    ...a,
    words: [...a.words, ...b.words],
    functionWords: [...new Set([...a.functionWords, ...b.functionWords])],
  };
}

/** The languages (ISO 639-3) of the scope's published files, by their share of its passages, largest first. */
function passageLanguages(languages: ScopeLanguage[]): LanguageCode[] {
  const rows = languages.filter(
    (r): r is { language: string; passages: number } => r.language !== null && r.language !== 'und',
  );
  const total = rows.reduce((sum, r) => sum + r.passages, 0);
  return rows
    .filter((r) => total === 0 || r.passages / total >= MIN_LANGUAGE_SHARE)
    .slice(0, MAX_TARGETS)
    .map((r) => (r.language === 'arb' ? 'ara' : r.language));
}

const analysers = new Map<string, ApertiumLemmas>();

/** One analyser per folder and process (it remembers when `lt-proc` is missing). */
function apertiumLemmas(path: string, log: Logger): ApertiumLemmas {
  let analyser = analysers.get(path);
  if (!analyser) {
    analyser = new ApertiumLemmas(path, log);
    analysers.set(path, analyser);
  }
  return analyser;
}
