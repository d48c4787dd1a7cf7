import type { DbOrTx } from '../../db/database.ts';
import { textConfigFor } from '../search/language.ts';
import { type ScopeLanguage, scopeLanguages } from '../search/scope-languages.ts';
import type { SearchScope } from '../search/search-scope.ts';
import { passageShares } from '../search/term-frequencies.ts';
import { fold } from './word-match.ts';

/**
 * How common each word of a question is in the company's published passages: the share of them that hold it (its
 * term frequencies, counted by the knowledge.analyze job), read in the text configurations of the scope's files. The
 * built-in answerer weighs a question's words by it: a word the company writes everywhere (its own name, "Gerät")
 * says little about which sentence answers, one it writes in three passages says much. Keyed by the folded word
 * (`fold`); a word the counts do not hold is in at most one passage. Empty when the company's passages are not
 * counted yet (the answerer then weighs by the retrieved text alone).
 */
export async function wordRarity(
  db: DbOrTx,
  scope: SearchScope,
  words: string[],
  /** The scope's languages when the caller read them already (`scopeLanguages`). */
  known?: ScopeLanguage[],
): Promise<Map<string, number>> {
  const unique = [...new Set(words.map((w) => w.toLowerCase()))];
  if (unique.length === 0) return new Map();
  const languages = known ?? (await scopeLanguages(db, scope));
  const configs = [...new Set(languages.map((l) => textConfigFor(l.language ?? 'und')))];
  if (configs.length === 0) return new Map();
  const shares = await passageShares(db, scope.companyId, unique, configs);
  const out = new Map<string, number>();
  for (const [word, share] of shares) out.set(fold(word), Math.min(1, share));
  return out;
}
