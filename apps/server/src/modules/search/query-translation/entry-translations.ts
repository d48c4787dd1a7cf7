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

/** Words in the right script only (a Russian translation holds Cyrillic letters), when the language's is known. */
export function translationsOf(body: string, script?: RegExp): string[] {
  const lines = body.split('\n').slice(1);
  const found: string[] = [];
  let first = true;
  for (const line of lines) {
    if (!line.trim() || NOT_TRANSLATIONS.test(line)) continue;
    const isSense = SENSE_LINE.test(line);
    if (!first && !isSense) continue;
    first = false;
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
