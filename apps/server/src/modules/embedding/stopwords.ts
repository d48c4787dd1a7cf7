/**
 * Function words of the interface languages, left out of the builtin embedder's features (they carry no topic and
 * would dominate a model-free vector). Full-text search uses PostgreSQL's own stop lists instead.
 */
const LISTS = [
  // en
  'a an and are as at be been but by can could did do does for from had has have he her his how i if in into is it its me my no not of on or our she so than that the their them then there these they this those to was we were what when where which who whom whose why will with would you your',
  // de
  'aber als am an auch auf aus bei bin bis bist da dann das dass dem den der des die dies diese diesem diesen dieser doch du durch ein eine einem einen einer eines er es für hat hatte ich ihr im in ist ja kann mit nach nicht noch nur ob oder sein seine sich sie sind so über um und uns von vor war was welche welcher welches wenn wer wie wir wird wo zu zum zur',
  // fr
  'au aux avec ce ces dans de des du elle en est et il ils je la le les leur lui ma mais me mes mon ne nous on ou par pas pour qu que qui quel quelle sa se ses son sur ta te tes ton tu un une vous',
  // it
  'a al alla alle che chi come con da dal dei del della delle di e è gli ha i il in la le lo ma nel nella non per più quale quali quando sono su un una uno',
  // pt
  'a ao as com como da das de do dos e é em era foi mais mas na nas no nos o os ou para pelo por qual quando que quem se sem seu sua um uma',
  // pl
  'a aby ale co czy dla do i jak jest jego jej już kiedy który która które na nie o od po przez się są ta te to w we z za że',
  // ru
  'а без в во вы где да для до его её если есть же за и из или им их к как какой когда кто ли на не нет но о об он она они от по при с со так то у что это я',
  // uk
  'а в від до для з за і й та як що це на не по у який яка яке коли хто де чи',
  // ar
  'في من على إلى عن مع هذا هذه ذلك التي الذي ما ماذا متى أين كيف هل لم لا و أو ثم كان كانت هو هي هم',
];

export const STOPWORDS: ReadonlySet<string> = new Set(LISTS.join(' ').split(' '));
