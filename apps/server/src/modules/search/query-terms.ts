import { STOPWORDS } from '../embedding/stopwords.ts';
import { compoundParts } from './german-compounds.ts';
import { synonymsOf } from './german-thesaurus.ts';
import { separableVerbForms } from './german-verb-forms.ts';

/**
 * What the full-text search looks for in a question (see `searchQuery`). `rankPassages` builds it from the question
 * text; words added for a question in another language (a translation of it) belong in `text`.
 */
export interface SearchQuery {
  /** The words that ask: the question's own, without fillers, with codes and sizes also in their parts. */
  text: string;
  /** Parts of the question's compounds: they find and rank a passage, but never lift one over the floor alone. */
  parts: string;
  /** The words those come from (a compound no passage writes is then weighed by its parts). */
  compounds: string;
  /** Synonyms of its words the documents do not use: like parts, and the question is not weighed by them. */
  synonyms: string;
  /**
   * The question's words the thesaurus knows, with their synonyms: the full-text search adds those of the words that
   * no passage of the company holds (its term frequencies, in German and as written), in the statement that reads
   * the question's terms. A word the documents do use is looked for as it is: its synonyms would mostly bring other
   * meanings.
   */
  synonymous: Array<{ word: string; synonyms: string[] }>;
  /**
   * The question's separable verbs with their other forms ("aufteilen": "aufgeteilt", "aufzuteilen"), which stemming
   * keeps apart: each is looked for as one word of the question, by any of its forms (not in `text`).
   */
  verbForms: Array<{ word: string; forms: string[] }>;
}

/**
 * Words that ask or fill a question without naming what it is about, in the question languages: verbs of asking
 * ("kostet", "bedeutet", "heißt"), colloquial fillers ("krieg", "nen", "gibts") and question words that the full-text
 * stop lists keep. They would otherwise make passages that share only them look relevant.
 */
export const QUESTION_FILLERS: ReadonlySet<string> = new Set(
  [
    // de
    'kostet koste bedeutet bedeuten heißt heisst meint gibt gibts gibt’s krieg kriege kriegt kriegen kriegst bekomme',
    'bekommt bekommst brauch brauche brauchst braucht muss musst müssen darf darfst dürfen kann kannst können soll',
    'sollen sollte mal denn eigentlich bitte genau tun mach mache macht machen nen ne nem wieviel wieviele welche',
    'werd werde wird werden wurde hab habe hast hat haben hätte hätt bin bist ist sind war isses gehts geht’s',
    'welcher welches welchen welchem wie was wer wo wann warum wieso weshalb woher wohin ob man jemand etwas so',
    'womit wofür woran worauf worüber wozu wodurch wovon wobei woraus wonach zählt gilt vom zum zur beim ins im am',
    // en
    'what which how much many does do did is are was were cost costs mean means get got need needs can could should',
    'must may would tell please',
    // fr, it, pt
    'quel quelle quels quelles combien coûte coute coûtent signifie faut est-ce comment quanto quanta quanti quante',
    'costa costano significa come qual quais quanto custa custam significa como',
    // pl, ru, uk, ar, tr
    'ile kosztuje kosztują znaczy jak jaki jaka jakie czy trzeba można',
    'сколько стоит стоят значит как какой какая какие ли нужно можно',
    'скільки коштує коштують означає як який яка які чи треба можна',
    'كم ماذا ما يعني هل كيف',
    'ne kadar nedir nasıl hangi mi mı mu mü',
  ]
    .join(' ')
    .split(' '),
);

/** Phrases that ask how much of something ("wie hoch", "how long"): their adjective names no topic. */
export const ASKING_PHRASES =
  /(?<![\p{L}\p{N}])(wie|how|combien|quanto|jak)\s+(hoch|lange?|viele?|oft|groß|gross|weit|schwer|alt|teuer|high|long|many|much|often|big|far|heavy|old|de temps|tempo|długo|często)(?![\p{L}\p{N}])/giu;

/**
 * The words that label the kind of answer a question asks for, in the documents' column names and units: a price
 * question looks for passages with prices ("Preis netto EUR"), a weight question for the weight ("Gewicht | kg").
 * Searched like synonyms: they rank, never weigh the question.
 */
const ANSWER_WORDS = [
  {
    asks: /kost|preis|teuer|cost|price|prix|co[uû]t|prezz|koszt|cen[ayę]|custa|pre[cç]o|сто(ит|имост)|цен|варт|кошту|سعر|تكلف/iu,
    words: 'preis price eur euro',
  },
  {
    asks: /wie schwer|gewicht|wiegt|how heavy|weigh|poids|peso|waga|вес|важить|وزن/iu,
    words: 'gewicht weight kg',
  },
];

/** Words at least this long are looked up in the thesaurus. */
const SYNONYM_MIN = 3;

/** Words longer than this may be compounds worth splitting. */
const COMPOUND_MIN = 7;

/**
 * The question as the full-text search reads it: fillers out (unless only function words are left), sizes such as "600x1000"
 * also as their numbers ("600 1000", as a price list writes "600 x 1000 mm"), and the parts of its compounds
 * ("Gesellenstunde" → "geselle stunde") apart, since a document may write them apart or in another compound
 * ("Monteurstunde Geselle"), and the synonyms of its words ("Azubi" → "auszubildender lehrling").
 */
export function searchQuery(question: string): SearchQuery {
  const words =
    question
      .normalize('NFC')
      .replace(ASKING_PHRASES, ' ')
      .match(/[\p{L}\p{N}][\p{L}\p{N}'’.-]*/gu) ?? [];
  const clean = words.map((w) => w.replace(/[.'’-]+$/u, ''));
  const kept = clean.filter((w) => !QUESTION_FILLERS.has(w.toLowerCase()));
  const asking = kept.some((w) => !STOPWORDS.has(w.toLowerCase())) ? kept : clean;
  const extra: string[] = [];
  for (const word of asking) {
    const size = /^(\d+(?:[.,]\d+)?)[x×](\d+(?:[.,]\d+)?)$/iu.exec(word);
    if (size) extra.push(size[1]!, size[2]!);
  }
  const parts = new Set<string>();
  const compounds: string[] = [];
  const synonymous: SearchQuery['synonymous'] = [];
  const verbForms: SearchQuery['verbForms'] = [];
  for (const word of asking) {
    const forms = separableVerbForms(word);
    if (forms.length > 0) verbForms.push({ word, forms });
    const split = word.length >= COMPOUND_MIN ? compoundParts(word) : [];
    if (split.length > 0) compounds.push(word);
    for (const part of split) parts.add(part);
    const lower = word.toLowerCase();
    if (word.length >= SYNONYM_MIN && /^\p{L}+$/u.test(word) && !STOPWORDS.has(lower)) {
      const synonyms = synonymsOf(word);
      if (synonyms.length > 0) synonymous.push({ word, synonyms });
    }
  }
  const verbs = new Set(verbForms.map((v) => v.word));
  return {
    text: [...asking.filter((w) => !verbs.has(w)), ...extra].join(' '),
    parts: [...parts].join(' '),
    compounds: compounds.join(' '),
    synonyms: ANSWER_WORDS.filter((a) => a.asks.test(question))
      .map((a) => a.words)
      .join(' '),
    synonymous,
    verbForms,
  };
}
