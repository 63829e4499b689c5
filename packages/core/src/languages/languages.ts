// One table of the languages media comes in, read three ways: as subtitle names carry them
// (`normalizeLanguage`), as release names carry them (`releaseLanguage`) and as bare ISO 639-1
// codes (`isLanguageCode`). Every answer is a lower-case ISO 639-1 code, with a region or script
// when the word names one (`pt-br`, `zh-hans`, `es-419`).

/** Every ISO 639-1 code, including those the table below has no names for. */
const ISO_639_1 = new Set(
  (
    'aa ab ae af ak am an ar as av ay az ba be bg bh bi bm bn bo br bs ca ce ch co cr cs cu cv cy da de dv dz ee el ' +
    'en eo es et eu fa ff fi fj fo fr fy ga gd gl gn gu gv ha he hi ho hr ht hu hy hz ia id ie ig ii ik io is it iu ' +
    'ja jv ka kg ki kj kk kl km kn ko kr ks ku kv kw ky la lb lg li ln lo lt lu lv mg mh mi mk ml mn mr ms mt my na ' +
    'nb nd ne ng nl nn no nr nv ny oc oj om or os pa pi pl ps pt qu rm rn ro ru rw sa sc sd se sg si sk sl sm sn so ' +
    'sq sr ss st su sv sw ta te tg th ti tk tl tn to tr ts tt tw ty ug uk ur uz ve vi vo wa wo xh yi yo za zh zu'
  ).split(' '),
);

/**
 * ISO 639-1 | ISO 639-2/B | ISO 639-2/T (blank when the same) | English name | native name | other
 * names. Names of more than one word are left out: no tag or release word can be one.
 */
const TABLE = `
en|eng||english|english|
fr|fre|fra|french|français|
de|ger|deu|german|deutsch|
es|spa||spanish|español|castellano
it|ita||italian|italiano|
pt|por||portuguese|português|
ru|rus||russian|русский|
ja|jpn||japanese|日本語|
zh|chi|zho|chinese|中文|mandarin cantonese
ko|kor||korean|한국어|
nl|dut|nld|dutch|nederlands|flemish vlaams
sv|swe||swedish|svenska|
no|nor||norwegian|norsk|
nb|nob||bokmål||
nn|nno||nynorsk||
da|dan||danish|dansk|
fi|fin||finnish|suomi|
is|ice|isl|icelandic|íslenska|
pl|pol||polish|polski|
cs|cze|ces|czech|čeština|
sk|slo|slk|slovak|slovenčina|
sl|slv||slovenian|slovenščina|slovene
hu|hun||hungarian|magyar|
ro|rum|ron|romanian|română|
bg|bul||bulgarian|български|
hr|hrv||croatian|hrvatski|
sr|srp||serbian|српски|srpski
bs|bos||bosnian|bosanski|
mk|mac|mkd|macedonian|македонски|
sq|alb|sqi|albanian|shqip|
el|gre|ell|greek|ελληνικά|
tr|tur||turkish|türkçe|
uk|ukr||ukrainian|українська|
be|bel||belarusian|беларуская|
lt|lit||lithuanian|lietuvių|
lv|lav||latvian|latviešu|
et|est||estonian|eesti|
ca|cat||catalan|català|
eu|baq|eus|basque|euskara|
gl|glg||galician|galego|
ga|gle||irish|gaeilge|
cy|wel|cym|welsh|cymraeg|
ar|ara||arabic|العربية|
he|heb||hebrew|עברית|
fa|per|fas|persian|فارسی|farsi
ur|urd||urdu|اردو|
hi|hin||hindi|हिन्दी|
bn|ben||bengali|বাংলা|bangla
pa|pan||punjabi|ਪੰਜਾਬੀ|
mr|mar||marathi|मराठी|
ta|tam||tamil|தமிழ்|
te|tel||telugu|తెలుగు|
kn|kan||kannada|ಕನ್ನಡ|
ml|mal||malayalam|മലയാളം|
th|tha||thai|ไทย|
vi|vie||vietnamese||
id|ind||indonesian||
ms|may|msa|malay|melayu|
tl|tgl||tagalog||filipino
hy|arm|hye|armenian|հայերեն|
ka|geo|kat|georgian|ქართული|
az|aze||azerbaijani|azərbaycanca|
kk|kaz||kazakh|қазақша|
uz|uzb||uzbek|oʻzbekcha|
mn|mon||mongolian|монгол|
ne|nep||nepali|नेपाली|
si|sin||sinhala|සිංහල|sinhalese
km|khm||khmer||
lo|lao||lao||
my|bur|mya|burmese||
sw|swa||swahili|kiswahili|
af|afr||afrikaans|afrikaans|
zu|zul||zulu|isizulu|
la|lat||latin||
eo|epo||esperanto||
`;

/** Lower case without accents, so `Français`, `FRANCAIS` and `français` are one word. */
function fold(word: string): string {
  return word
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();
}

// Maps, not object literals: a tag `constructor` or `__proto__` must find nothing.
const BY_CODE_2 = new Map<string, string>();
const BY_NAME = new Map<string, string>();
for (const row of TABLE.trim().split('\n')) {
  const [code, bibliographic, terminology, english, native, others] = row.split('|') as [string, string, string, string, string, string];
  for (const c of [bibliographic, terminology]) if (c) BY_CODE_2.set(c, code);
  for (const n of [english, native, ...others.split(' ')]) if (n) BY_NAME.set(fold(n), code);
}
// `und` (undetermined) is how muxers and media servers mark a track nobody tagged.
BY_CODE_2.set('und', 'und');
BY_NAME.set('undetermined', 'und');
// Names of a regional form, which subtitle and release names both use; Latino is Latin American
// Spanish, which Radarr and Sonarr also keep apart from Spanish.
BY_NAME.set('brazilian', 'pt-br');
BY_NAME.set('latino', 'es-419');

/** Scripts (ISO 15924) a regional form may carry: `zh-Hans`, `sr-Latn`. */
const SCRIPTS = new Set(['hans', 'hant', 'latn', 'cyrl', 'arab', 'deva', 'grek', 'hebr', 'jpan', 'kore', 'thai']);
const REGIONAL = /^([a-z]{2,3})[-_]([a-z]{2}|\d{3}|[a-z]{4})$/;

function codeOf(code: string): string | undefined {
  return ISO_639_1.has(code) ? code : BY_CODE_2.get(code);
}

/**
 * A language as subtitle names and the API carry it (`en`, `eng`, `English`, `Français`, `pt-BR`,
 * `zh_Hans`, `es-419`), as a lower-case ISO 639-1 code with its region or script if any (`en`,
 * `pt-br`), or null when it is not one. A region is two letters or a UN M.49 area (`419`); a
 * script is one of the ISO 15924 scripts above, so `eng_subs` is not taken for a language.
 */
export function normalizeLanguage(tag: string): string | null {
  const t = fold(tag);
  const whole = codeOf(t) ?? BY_NAME.get(t);
  if (whole) return whole;
  const regional = REGIONAL.exec(t);
  if (!regional) return null;
  const region = regional[2]!;
  if (region.length === 4 && !SCRIPTS.has(region)) return null;
  const code = codeOf(regional[1]!);
  return code && code !== 'und' ? `${code}-${region}` : null;
}

/** An ISO 639-1 code (`it`, `DE`): a release name's two-letter word may be one or a title word. */
export function isLanguageCode(token: string): boolean {
  return ISO_639_1.has(token.toLowerCase());
}

/**
 * ISO 639-2 codes that are also common words or names in titles (`Dan.in.Real.Life`, `La.Vie.en.Rose`,
 * `Ice.Age`, `The.Rum.Diary`, `Por.un.Punado`), so a release word spelling one is not taken for it.
 * Their languages are still found by name (`Danish`, `Vietnamese`).
 */
const TITLE_WORD_CODES = new Set(
  'arm bel ben bos cat dan est fin geo ice ind kan kat lat lit mac mal mar may mon nor pan per por ron rum sin tel und vie'.split(' '),
);

/**
 * Words only release names use for a language. The French ones follow Radarr's LanguageParser:
 * VF/VFF (France), VFQ (Quebec), VFI (international) and VF2 (both) are all French dubs, and VOSTFR /
 * SUBFRENCH (original audio, French subtitles) name French too, as the language the release is for.
 * SWESUB, NLSUBS, KORSUB, SUBITA likewise name their subtitles' language.
 */
const RELEASE_WORDS = new Map<string, string>([
  ['truefrench', 'fr'],
  ['vf', 'fr'],
  ['vff', 'fr'],
  ['vfq', 'fr'],
  ['vfi', 'fr'],
  ['vf2', 'fr'],
  ['vostfr', 'fr'],
  ['subfrench', 'fr'],
  ['esp', 'es'],
  ['jap', 'ja'],
  ['dublado', 'pt-br'],
  ['legendado', 'pt-br'],
  ['lektor', 'pl'],
  ['hebdub', 'he'],
  ['hundub', 'hu'],
  ['rodubbed', 'ro'],
  ['bgaudio', 'bg'],
  ['swesub', 'sv'],
  ['nlsubs', 'nl'],
  ['korsub', 'ko'],
  ['subita', 'it'],
]);

/**
 * The language a word of a scene or P2P release name names: a name (`GERMAN`, `Deutsch`,
 * `Español`, `Latino` → `es-419`), a three-letter code (`ENG`, `GER`, `FRE`) or a release word
 * (`VOSTFR`, `TRUEFRENCH`, `VFQ` → `fr`). Never a two-letter code, which a title word can spell
 * (`IT`, `DE`): see `isLanguageCode`. Words for several languages (`NORDIC`, `MULTI`) have no one
 * answer and give null: see `isMultiLanguageWord`.
 */
export function releaseLanguage(word: string): string | null {
  const w = fold(word);
  if (w.length === 3 && !TITLE_WORD_CODES.has(w)) {
    const code = BY_CODE_2.get(w);
    if (code) return code;
  }
  return RELEASE_WORDS.get(w) ?? BY_NAME.get(w) ?? null;
}

/** Release words that say the release carries several languages without naming them. */
const MULTI_LANGUAGE_WORDS = new Set(['multi', 'multisub', 'multisubs', 'dual', 'nordic']);

/** `MULTi`, `DUAL`, `NORDIC` (Swedish, Danish, Norwegian and Finnish): language words that name no one language. */
export function isMultiLanguageWord(word: string): boolean {
  return MULTI_LANGUAGE_WORDS.has(fold(word));
}
