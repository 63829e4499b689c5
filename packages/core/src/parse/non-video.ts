// Names of things that are not movies or episodes, whatever years or numbers they carry: music,
// software, games, books and comics. A music release named `Artist-Album-2010-GROUP` must never
// become a movie called "Artist-Album".

const NON_VIDEO_EXTENSIONS = new Set(
  (
    'mp3 flac m4a aac ogg opus wav wma ape alac aiff dsf cue m3u pls pdf epub mobi azw azw3 djvu cbr cbz ' +
    'cb7 doc docx txt rtf exe msi dmg pkg deb rpm apk appimage img bin nsp xci zip rar 7z tar gz ' +
    'bz2 xz torrent nzb nfo sfv par2 jpg jpeg png gif webp bmp srr'
  ).split(' '),
);

type Kind = 'music' | 'software' | 'game' | 'book';

/** Words that say what a release is on their own. */
const STRONG = new Map<string, Kind>();
/** Words that also occur in film titles ("Patch Adams", "The Single Moms Club"): they count only beside other evidence. */
const WEAK = new Map<string, Kind>();
const add = (map: Map<string, Kind>, kind: Kind, list: string) => {
  for (const w of list.trim().split(/\s+/)) map.set(w, kind);
};
add(
  STRONG,
  'music',
  `flac mp3 320kbps 256kbps 192kbps 128kbps lossless 24bit 16bit khz 44.1khz 48khz 96khz
  192khz vinyl 2xvinyl 3xvinyl cds cdm cdep 2cds 2cd 3cd 4cd 5cd 6cd mp3cd discography 7inch 10inch 12inch
  2lp 3lp 4lp 5lp 8lp siriusxm`,
);
add(
  WEAK,
  'music',
  `single album ost soundtrack promo remix remixes bootleg reissue boxset feat ft mixtape
  lp cd sat dvbs cable fm web deluxe mix`,
);
add(STRONG, 'software', 'x64 x86 win32 win64 winall winnt2k keygen keymaker keygenerator macos osx symbianos multios');
add(WEAK, 'software', 'crack cracked patch patchtool incl portable setup serial linux android multilingual retail win mac professional');
add(STRONG, 'game', 'nsw ps2 ps3 ps4 ps5 psp psv xbox xbox360 x360 wii wiiu ngc gba nds 3ds n64 nocd eshop');
add(WEAK, 'game', 'codex skidrow plaza reloaded flt darksiders razor1911 tenoke rune empress dodi fitgirl elamigos update pal ntsc repack');
add(STRONG, 'book', 'ebook epub pdf mobi azw3 cbr cbz audiobook abook bookware hörbuch hoerbuch');
add(WEAK, 'book', 'comic comics magazine magazin guide dox');

/** Music scene names end `-Year-GROUP` (also `-201X-`, `-20xx-`); films put the year elsewhere. */
const RE_MUSIC_TAIL = /[-_](?:WEB-?|CD-?|VINYL-?)?\(?(?:19|20)(?:\d{2}|\d[xX]|[xX]{2})\)?-[\p{L}\p{N}_]+$/u;
const RE_VERSION = /(?:^|[^\p{L}\p{N}])(?:v\d+(?:\.\d+){1,3}[a-z]?(?![\p{N}])|\d{1,3}\.\d{1,3}\.\d{1,3}(?![\p{N}])|v\d{8}(?![\p{N}]))/iu;
const RE_VA = /^va\s*-/i;
// Every run of letters and digits is a word here: `eBook-BitBook` and `EAC+FLAC` are two each.
const RE_WORD = /[\p{L}\p{N}]+/gu;
// A music EP in scene style: `-EP-`, `(EP)`; an "Ep 2" is an episode.
const RE_EP = /[-(]EP[-)]/;
/** What only video releases carry: their resolution, video source or codec, or an episode marker. */
// Only ever tested, never matched for where: the boundary before is a character, not a lookbehind,
// which V8 tries at every position for a third more time.
const RE_VIDEO =
  /(?:^|[^\p{L}\p{N}])(?:\d{3,4}[pi]|[48]k|uhd|blu-?ray|bdrip|brrip|bdremux|web-?dl|webrip|web-?dlrip|hdtv|hdtvrip|tvrip|satrip|dvbrip|vhsrip|pdtv|dvd-?rip|dvdr|dvd[59]|hdrip|hdcam|camrip|telesync|x26[45]|h\.?26[45]|hevc|xvid|divx|av1|remux|s\d{1,2}e\d{1,3})(?![\p{L}\p{N}])/iu;

// Audio formats end many video release names too (`Show.S01E05.WEB-DL.x264.AAC`).
const AUDIO_TOKENS = new Set(['aac', 'flac', 'mp3', 'ogg', 'opus', 'wav']);

/** The extension of a name when it is one that is surely no video, lower-case without its dot. */
export function nonVideoExtension(name: string): string | null {
  const dot = name.lastIndexOf('.');
  if (dot < 0 || name.length - dot > 10) return null;
  const ext = name.slice(dot + 1).toLowerCase();
  if (!NON_VIDEO_EXTENSIONS.has(ext)) return null;
  return AUDIO_TOKENS.has(ext) && RE_VIDEO.test(name) ? null : ext;
}

const WHAT: Record<Kind, string> = { music: 'a music release', software: 'software', game: 'a game', book: 'a book' };

/**
 * Why a name is music, software, a game or a book; null when nothing says so, or when the name also
 * carries video evidence (a resolution, a video codec, an episode marker): anime releases name their
 * FLAC audio, and series episodes are named after games and magazines.
 */
export function nonVideoReason(s: string): string | null {
  // A resolution, video codec or episode marker outweighs any word: "Demo.Derby.S01E21.Official.Xbox.Magazine".
  if (RE_VIDEO.test(s)) return null;
  const strong = new Set<Kind>();
  const weak = new Map<Kind, number>();
  for (const m of s.matchAll(RE_WORD)) {
    const lower = m[0].toLowerCase();
    const k = STRONG.get(lower);
    if (k) strong.add(k);
    const w = WEAK.get(lower);
    if (w) weak.set(w, (weak.get(w) ?? 0) + 1);
  }
  const musicTail = !/\s/.test(s) && RE_MUSIC_TAIL.test(s);
  for (const k of ['book', 'game', 'software', 'music'] as const) if (strong.has(k)) return WHAT[k];
  if (musicTail || RE_VA.test(s) || RE_EP.test(s)) return WHAT.music;
  if (RE_VERSION.test(s)) return weak.has('game') ? WHAT.game : WHAT.software;
  // Two words that each could be a title's make a release of their kind: `Single Promo`, `Retail Patch`.
  for (const [k, n] of weak) if (n >= 2) return WHAT[k];
  return null;
}
