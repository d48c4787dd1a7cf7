import { STOPWORDS } from '../embedding/stopwords.ts';
import { germanWordList } from './german-compounds.ts';

/**
 * A German separable verb's forms, which stemming keeps apart: its particle takes the "ge" of the participle and the
 * "zu" of the infinitive inside the word ("aufteilen", "aufgeteilt", "aufzuteilen"; "abrechnen", "abgerechnet").
 * Snowball stems them to three lexemes ("aufteil", "aufgeteilt", "aufzuteil"), so "kann man die Pause aufteilen"
 * missed the law's "… können … aufgeteilt werden".
 */

/** The particles of separable verbs (lower case, as written). */
const PARTICLES =
  'zurück|zusammen|heraus|herein|herunter|hinaus|hinein|vorbei|weiter|wieder|durch|nach|fest|frei|auf|aus|bei|ein|mit|vor|weg|los|hin|her|ab|an|zu|um';

const INFINITIVE = new RegExp(`^(${PARTICLES})(\\p{L}{3,}?)e?n$`, 'u');
const PARTICIPLE = new RegExp(`^(${PARTICLES})ge(\\p{L}{3,}?)e?t$`, 'u');
const WITH_ZU = new RegExp(`^(${PARTICLES})zu(\\p{L}{3,}?)e?n$`, 'u');

interface SeparableVerb {
  particle: string;
  /** The base verb's stem ("teil", "rechn") and infinitive ("teilen", "rechnen"). */
  stem: string;
  infinitive: string;
}

/** The separable verb a (lower-case) word is a form of, when the word list knows its base verb. */
function separableVerb(lower: string): SeparableVerb | null {
  const list = germanWordList();
  if (!list || STOPWORDS.has(lower)) return null;
  for (const pattern of [WITH_ZU, PARTICIPLE, INFINITIVE]) {
    const m = pattern.exec(lower);
    if (!m) continue;
    const [, particle, stem] = m as unknown as [string, string, string];
    // "zugelassen" is no "zu" + "gelassen": a participle's "ge" is never the base verb's start.
    if (stem.startsWith('ge')) continue;
    // The base verb, as the list writes its infinitive ("teilen", "rechnen", "sammeln"), and not as a noun ("Fahrten"
    // of "Anfahrten").
    const infinitive = [`${stem}en`, `${stem}n`].find(
      (v) => list.has(v) && !list.has(v, true) && !STOPWORDS.has(v),
    );
    if (infinitive) return { particle, stem, infinitive };
  }
  return null;
}

/**
 * The other forms of the separable verb a word is a form of (lower case): for "aufteilen" "aufgeteilt",
 * "aufzuteilen" and "aufteilt"; for "abgerechnet" "abrechnen", "abzurechnen", "abrechnet". Only when the system's
 * word list knows the verb without its particle ("teilen", "rechnen"): "Anfahrten" or "zugelassen" are none. Empty
 * for every other word, and without the word list. A word that only looks like one yields forms no text writes
 * ("anderen" → "andert").
 */
export function separableVerbForms(word: string): string[] {
  const lower = word.toLowerCase();
  const verb = separableVerb(lower);
  if (!verb) return [];
  const { particle, stem, infinitive } = verb;
  // "-et" after a stem ending in d or t, or in m or n after another consonant ("abgearbeitet", "abgerechnet").
  const t = /[dt]$|(?:ch|[^aeiouäöülrh])[mn]$/u.test(stem) ? 'et' : 't';
  // A strong verb's participle ends as its infinitive ("eingehalten"), an inseparable prefix's has no "ge"
  // ("aufbewahrt"): both are tried, a form no passage writes finds nothing.
  const forms = [
    `${particle}${infinitive}`,
    `${particle}ge${stem}${t}`,
    `${particle}ge${infinitive}`,
    `${particle}zu${infinitive}`,
    `${particle}${stem}${t}`,
  ];
  return forms.filter((f) => f !== lower);
}

/**
 * The stem all forms of a separable verb share, its particle before the base verb's stem ("aufgeteilt",
 * "aufzuteilen", "aufteilen" → "aufteil"), or null for any other word (lower case).
 */
export function separableStem(lower: string): string | null {
  const verb = separableVerb(lower);
  return verb ? `${verb.particle}${verb.stem}` : null;
}
