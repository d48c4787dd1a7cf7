import snowballFactory from 'snowball-stemmers';

/**
 * The words of a question as the dictionaries see them: normalised, without the function words and question fillers
 * of its language (they have no translation worth searching for), Arabic clitics split off.
 */

/** Languages are ISO 639-3 codes, as FreeDict names its dictionaries and `files.language` stores them. */
export type LanguageCode = string;

const FOLDS: Record<string, string> = {
  ё: 'е',
  أ: 'ا',
  إ: 'ا',
  آ: 'ا',
  ى: 'ي',
  ة: 'ه',
  '’': "'",
  '‘': "'",
  '`': "'",
};

/** Lower case, NFC; ё as е; Arabic without vowel marks and with one alef, yeh and heh form. */
export function normalizeWord(word: string): string {
  const lower = word.toLowerCase();
  // Most headwords are plain ASCII: nothing else to fold.
  if (/^[ -~]*$/.test(lower)) return lower.trim();
  return lower
    .normalize('NFC')
    .replace(/i̇|[ёأإآىة’‘`]|[\u064B-\u0652\u0640]/g, (c) => (c === 'i̇' ? 'i' : (FOLDS[c] ?? '')))
    .trim();
}

/** The script a language's words are written in, to keep a dictionary's definitions out of its translations. */
export const SCRIPTS: Record<LanguageCode, RegExp> = {
  ara: /\p{Script=Arabic}/u,
  rus: /\p{Script=Cyrillic}/u,
  ukr: /\p{Script=Cyrillic}/u,
  bul: /\p{Script=Cyrillic}/u,
  ell: /\p{Script=Greek}/u,
};
export const LATIN = /\p{Script=Latin}/u;
export const scriptOf = (language: LanguageCode): RegExp => SCRIPTS[language] ?? LATIN;

/**
 * Function words, question words and fillers of questions. Colloquial forms are included where workers write them
 * (Levantine and Egyptian Arabic question words, German dialect-free short forms).
 */
export const FUNCTION_WORDS: Record<LanguageCode, ReadonlySet<string>> = Object.fromEntries(
  Object.entries({
    eng: 'a an and are as at be been but by can could did do does doing done for from get got had has have having he her his how i if in into is it its me my no not of on or our ours should she so than that the their them then there these they this those to was we were what when where which who whom whose why will with would you your yours much many long often am any some need needs must may might shall us just also still about up out way there here one ones',
    deu: 'aber als am an auch auf aus bei bin bis bist da dann das dass dem den der des die dies diese diesem diesen dieser doch du durch ein eine einem einen einer eines er es für hat hatte ich ihr im in ist ja kann mit nach nicht noch nur ob oder sein seine sich sie sind so über um und uns von vor war was welche welcher welches welchem wenn wer wie wir wird wo zu zum zur muss müssen werden wurde soll sollen darf dürfen gibt man mein meine unser unsere viel viele oft lange wann warum',
    fra: 'au aux avec ce ces dans de des du elle en est et il ils je la le les leur lui ma mais me mes mon ne nous on ou par pas pour qu que qui quel quelle quels quelles sa se ses son sur ta te tes ton tu un une vous combien comment quand pourquoi où dois doit faut peut peux est-ce',
    ita: 'a al alla alle che chi come con da dal dei del della delle di e è gli ha ho i il in la le lo ma nel nella non per più quale quali quando sono su un una uno quanto quanta quanti quante perché dove devo deve posso può si',
    por: 'a ao as com como da das de do dos e é em era foi mais mas na nas no nos o os ou para pelo por qual quais quando que quem se sem seu sua um uma quanto quanta quantos quantas onde porque devo deve posso pode tenho tem',
    pol: 'gdzie dokąd skąd po co a aby ale co czy dla do i jak jest jego jej już które która który kiedy mi mnie może można mój na nad nie o od po pod przez przy się są ta tak te to tu w we z za że ile ilu jaki jaka jakie gdzie dlaczego muszę musi musimy trzeba potrzeba mam ma mamy jako mogę mogą długo często razy mnie mną mój moja moje moi mojego swój swoja swoje sobie siebie będzie będą będę będziesz będziemy był była było byli byłem byłam byłeś byłaś byliśmy jestem jesteś jesteśmy jesteście możemy możesz musisz muszą jeszcze bardzo też także tam tutaj ten ta te tego tej który która które wszystko wszyscy żeby gdy jeśli',
    tur: 'bir bu şu o ve ile de da mi mı mu mü ne neden nasıl nerede nereye hangi kaç kaçıncı kadar için gibi ama veya ya ki en çok az daha var yok mı mıyım miyim musun misin benim bizim ben biz sen siz onlar lazım gerek gerekiyor gerekli zorunda olarak olan ile sonra önce her hiç bana beni bende benim bize bizi sana seni onu ona onun bunu buna bunun şey mı mi mu mü mısın misin miyiz mıyız eğer çünkü hem daha',
    rus: 'где куда откуда зачем почему а без в во вы да для до его ее её если же за и из или им их к как ко когда кто ли мне мой мы на над не нет но о об он она они от по под при про с со так то ты у уже чем что это я сколько какой какая какое какие каком нужно надо можно могу может должен должна обязан ли раз часто долго меня мне мной моим моя мое моё мои моего моей свой своя своё свое свои своего себе себя будет будут был была было были есть ещё еще уже очень тоже также там тут здесь этот эта эти этого этой того той который которая которые котором всё все весь вся чтобы можно ли',
    ukr: 'де куди звідки навіщо чому а без в від ви для до його її з за і й або їх к як коли хто чи мені мій ми на над не немає але о об він вона вони по під при про у уже ніж що це я скільки який яка яке які якому треба потрібно можна можу може мушу мусить повинен раз часто довго мене мені мною моїм моя моє мої мого моєї свій своя своє свої свого собі себе буде будуть був була було були є ще вже дуже теж також там тут цей ця ці цього цієї того тієї який яка які якому все всі весь вся щоб',
    ara: 'في من على الى إلى عن مع هل ما ماذا متى كيف كم اين أين لماذا هو هي هم انا أنا نحن انت أنت هذا هذه ذلك تلك التي الذي كان يكون لا لم لن قد او أو و ثم اذا إذا ان أن إن لازم بدي بدك فيني فيك قديش شو ليش وين امتى إمتى ايمتى كيفو منين عند عندي عنا بقدر بدنا لازمنا يعني كتير كثير شي شيء حسب',
  }).map(([lang, words]) => [lang, new Set(words.split(' ').map(normalizeWord))]),
);

/** The words of a text: letters, digits and inner hyphens or apostrophes ("call-out", "об'єкт"). */
export function wordsOf(text: string): string[] {
  return text.match(/[\p{L}\p{N}]+(?:['’-][\p{L}\p{N}]+)*/gu) ?? [];
}

/** Whether a word is a function word of the language (or a bare number, which needs no translation). */
export function isFunctionWord(word: string, language: LanguageCode): boolean {
  const w = normalizeWord(word);
  // An Arabic clitic written apart before a foreign word, with a tatweel ("الـ Geselle", "بـ 2026").
  if (language === 'ara' && ARABIC_PREFIXES.includes(w)) return true;
  return FUNCTION_WORDS[language]?.has(w) ?? false;
}

/** Arabic prefixes (conjunctions, prepositions, the article) and suffixes (pronouns, plural and feminine endings). */
const ARABIC_PREFIXES = ['وبال', 'وال', 'بال', 'فال', 'كال', 'لل', 'ال', 'و', 'ف', 'ب', 'ل', 'ك'];
const ARABIC_SUFFIXES = ['ات', 'ون', 'ين', 'ها', 'هم', 'نا', 'كم', 'ه', 'ي', 'ك'];

/**
 * The forms a dictionary may list a word under: the word itself, and for Arabic the word without its clitics
 * ("بالفواتير" → "فواتير", "الفواتير"), longest remainders first, never shorter than three letters, a feminine
 * plural also as its singular, and every form also with the article.
 */
export function lookupForms(word: string, language: LanguageCode): string[] {
  const w = normalizeWord(word);
  if (language === 'ukr') return ukrainianForms(w);
  if (language === 'tur') return turkishForms(w);
  if (language !== 'ara') return [w];
  const forms = [w];
  for (const prefix of ARABIC_PREFIXES) {
    if (!w.startsWith(prefix) || w.length - prefix.length < 3) continue;
    const stem = w.slice(prefix.length);
    forms.push(stem);
    if (prefix.endsWith('ال')) continue;
    forms.push(`ال${stem}`);
  }
  for (const form of [...forms]) {
    for (const suffix of ARABIC_SUFFIXES) {
      if (!form.endsWith(suffix) || form.length - suffix.length < 3) continue;
      const stem = form.slice(0, -suffix.length);
      forms.push(stem);
      // The feminine plural replaces the singular's ta marbuta (folded to ه): "ساعات" is the plural of "ساعة".
      if (suffix === 'ات') forms.push(`${stem}ه`);
    }
  }
  // Dictionaries list many nouns with their article ("الساعة" for "hour"): each form also as such, after the rest.
  const withArticle = forms.filter((f) => !f.startsWith('ال')).map((f) => `ال${f}`);
  return [...new Set([...forms, ...withArticle])];
}

const turkish = snowballFactory.newStemmer('turkish');

/**
 * A Turkish word and its stem without the suffixes Turkish stacks on it (Snowball: "faturaları" → "fatura",
 * "talebini" → "talep", "süresinde" → "süre"), for the dictionaries' headwords; a stem of fewer than four letters is
 * more likely another word ("bakımı" → "bak") and is left out.
 */
function turkishForms(w: string): string[] {
  const stem = turkish.stem(w);
  return stem !== w && stem.length >= 4 ? [w, stem] : [w];
}

/**
 * A Ukrainian word as Russian may spell it, for the Russian dictionaries: і is Russian и or е (from ѣ), є and ї are
 * е and и, ґ is г, the apostrophe a hard sign ("місто" → "мисто", "место"; "об'єкт" → "объект").
 */
function ukrainianForms(w: string): string[] {
  const base = w.replace(/є/g, 'е').replace(/ї/g, 'и').replace(/ґ/g, 'г').replace(/'/g, 'ъ');
  return [...new Set([w, base, base.replace(/і/g, 'и'), base.replace(/і/g, 'е')])];
}

/**
 * A Cyrillic word in Latin letters as German spells its sounds, for a word no dictionary knows: workers write German
 * terms of their trade as they hear them ("гезелле" → "geselle", "азубі" → "asubi").
 */
const CYRILLIC_TO_LATIN: Record<string, string> = {
  а: 'a',
  б: 'b',
  в: 'w',
  г: 'g',
  ґ: 'g',
  д: 'd',
  е: 'e',
  є: 'je',
  ж: 'sch',
  з: 's',
  и: 'i',
  і: 'i',
  ї: 'ji',
  й: 'j',
  к: 'k',
  л: 'l',
  м: 'm',
  н: 'n',
  о: 'o',
  п: 'p',
  р: 'r',
  с: 's',
  т: 't',
  у: 'u',
  ф: 'f',
  х: 'ch',
  ц: 'z',
  ч: 'tsch',
  ш: 'sch',
  щ: 'schtsch',
  ъ: '',
  ы: 'y',
  ь: '',
  э: 'e',
  ю: 'ju',
  я: 'ja',
  "'": '',
};
export function transliterateCyrillic(word: string): string | null {
  const w = normalizeWord(word);
  if (!/\p{Script=Cyrillic}/u.test(w)) return null;
  return [...w].map((c) => CYRILLIC_TO_LATIN[c] ?? c).join('');
}
