/**
 * The translations that a dictd entry of FreeDict gives for its headword. The dictionaries come from different
 * sources and print their entries differently (Ding's one sense per entry with notes and examples; the TEI ones'
 * numbered senses each followed by a definition in the headword's language; Roman-numbered parts of speech), but all
 * put the translations on the line after the headword or on a line that starts with a sense number; every other line
 * is a definition, a note, an example or a cross-reference, and is left out.
 */

/** A translation longer than this many words is a definition or an example, not a word to search for. */
const MAX_WORDS = 3;
const MAX_CHARS = 40;

/** Sense numbers, part-of-speech tags and Roman-numbered parts at the start of a line: "I.  <N> 1.  ". */
const LEADING_MARKS = /^(?:\s*(?:[IVX]+\.|\d+\.|<[^>]*>))+\s*/;
/** A line that begins a sense: "1. …", "II. <V> …". */
const SENSE_LINE = /^\s*(?:[IVX]+\.|\d+\.)/;
/**
 * A grammar tag after a translation and what follows it up to the next translation: Ding writes a translation's
 * abbreviation or symbol there ("Minute <fem>Min.", "Kupfer <neut> [chem.] Cu"), which is no part of the word. (The
 * tags that start a line, before its translation, are LEADING_MARKS, taken off first.)
 */
const AFTER_TAG = /\s*<[^>]*>[^,;]*/g;
/**
 * The object a verb takes, as Ding writes it ("etw. beantragen", "sich um jdn. kümmern", "to look after sb."): a
 * placeholder, no word of the translation.
 */
const PLACEHOLDERS = /(?<![\p{L}.])(?:etw|jdm|jdn|jds|jd|sth|sb)\.?(?:'s)?(?![\p{L}.])/gu;

/**
 * A headword or translation without its placeholders ("apply for sth" → "apply for"), spaces collapsed. Run on every
 * line of a dictionary's index: the pattern only where a placeholder's letters are.
 */
export const withoutPlaceholders = (text: string): string =>
  /s(?:th|b)|etw|jd/.test(text) ? text.replace(PLACEHOLDERS, ' ').replace(/\s+/g, ' ').trim() : text;
/** Notes, examples and cross-references (Ding), which may follow a translation line. */
const NOT_TRANSLATIONS = /^\s*(?:see:|note:|synonyms?:|"|example|usage)/i;

/**
 * The labels of a sense that company documents hardly write: colloquial, slang, vulgar, humorous, pejorative,
 * euphemistic, youth language, poetic, dated or rare (Ding's German and English labels). A dictionary lists such senses
 * beside the plain ones, often first ("sick": geil, krass, fett [Jugendsprache] and Kotze [slang] before krank).
 */
const REGISTER_LABEL =
  /\[(?:ugs\.|coll\.|slang|vulg\.|derb|pej\.|oft pej\.|humor\.|euphem\.|Jugendsprache|poet\.|veraltet|veraltend|altertümlich|obs\.|arch\.|archaic|dated|becoming dated|selten|rare)\]/;
/** A note that says the same of the whole sense ("Note: Jugendsprache für toll"). */
const REGISTER_NOTE = /^\s*note:.*\b(?:Jugendsprache|umgangssprachlich|salopp|slang)\b/i;
/** Labels before a line's first translation: they are the headword's ("boss [coll.]": Chef), not the translations'. */
const LINE_LABELS = /^\s*(?:\[[^\]]*\]\s*)+/;

/**
 * A dictd entry's translations (see `translationsOf`), those of colloquial, rare or dated senses (REGISTER_LABEL)
 * after the others, and how many the others are. Ding writes the label of a translation after it ("jetzt, nun, itzt
 * [obs.]"), and of all of an entry's translations in a note; a label before the first translation is the headword's
 * own register ("boss", colloquial for "Chef"), which a question may well use.
 */
export function entryTranslations(body: string, script?: RegExp): { translations: string[]; plain: number } {
  const plain: string[] = [];
  const marked: string[] = [];
  const wholeEntry = body.split('\n').some((line) => REGISTER_NOTE.test(line));
  for (const { line, translations } of translationLines(body, script)) {
    // The translations written with a label of their own: each part of the line (between its commas) read alone.
    const labelled = new Set(
      topLevelParts(line.replace(LEADING_MARKS, '').replace(LINE_LABELS, ''))
        .filter((part) => REGISTER_LABEL.test(part))
        .flatMap((part) => phrasesOf(part, script)),
    );
    for (const t of translations) {
      if (plain.includes(t) || marked.includes(t)) continue;
      (wholeEntry || labelled.has(t) ? marked : plain).push(t);
    }
  }
  return { translations: [...plain, ...marked], plain: plain.length };
}

/** A line cut at its commas and semicolons outside brackets, braces, parentheses and grammar tags. */
function topLevelParts(line: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let current = '';
  for (const c of line) {
    if (c === '(' || c === '[' || c === '{' || c === '<') depth++;
    else if ((c === ')' || c === ']' || c === '}' || c === '>') && depth > 0) depth--;
    if (depth === 0 && (c === ',' || c === ';')) {
      parts.push(current);
      current = '';
    } else current += c;
  }
  parts.push(current);
  return parts;
}

/** Words in the right script only (a Russian translation holds Cyrillic letters), when the language's is known. */
export function translationsOf(body: string, script?: RegExp): string[] {
  const found: string[] = [];
  for (const { translations } of translationLines(body, script))
    for (const t of translations) if (!found.includes(t)) found.push(t);
  return found;
}

/** The lines of an entry that give translations, each with its translations. */
function translationLines(body: string, script?: RegExp): Array<{ line: string; translations: string[] }> {
  const lines = body.split('\n').slice(1);
  const out: Array<{ line: string; translations: string[] }> = [];
  let first = true;
  for (const line of lines) {
    if (!line.trim() || NOT_TRANSLATIONS.test(line)) continue;
    const isSense = SENSE_LINE.test(line);
    if (!first && !isSense) continue;
    first = false;
    out.push({ line, translations: phrasesOf(line, script) });
  }
  return out;
}

/** The translations a line (or a part of one) gives. */
function phrasesOf(line: string, script?: RegExp): string[] {
  const found: string[] = [];
  const cleaned = line
    .replace(LEADING_MARKS, '')
    .replace(/\s+\d+\.\s*$/, '')
    .replace(AFTER_TAG, '')
    .replace(PLACEHOLDERS, ' ')
    .replace(/<[^>]*>|\[[^\]]*\]|\([^)]*\)|\{[^}]*\}|\/[^/]*\//g, ' ');
  for (const part of cleaned.split(/[,;]/)) {
    const phrase = part
      .replace(/\s+/g, ' ')
      .replace(/[.:!?]+$/, '')
      .trim();
    if (phrase.length < 2 || phrase.length > MAX_CHARS || !/\p{L}/u.test(phrase)) continue;
    if (phrase.split(' ').length > MAX_WORDS) continue;
    if (script && !script.test(phrase)) continue;
    if (!found.includes(phrase)) found.push(phrase);
  }
  return found;
}

/** The headword as the entry's first line writes it (the index may hold it lower-cased), without pronunciation. */
export function headwordOf(body: string, indexHeadword: string): string {
  const first = body
    .split('\n', 1)[0]!
    .replace(/<[^>]*>|\/[^/]*\//g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return first.toLowerCase() === indexHeadword.toLowerCase() ? first : indexHeadword;
}
