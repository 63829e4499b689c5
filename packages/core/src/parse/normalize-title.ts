// Title normalisation for comparisons: two spellings of one title compare equal.

const FOLD: Record<string, string> = {
  ß: 'ss', æ: 'ae', Æ: 'ae', œ: 'oe', Œ: 'oe', ø: 'o', Ø: 'o', đ: 'd', Đ: 'd', ł: 'l', Ł: 'l',
  þ: 'th', ð: 'd', ı: 'i',
};

/**
 * Normalises a title for comparisons: lowercase, accents stripped, `&` → `and`, punctuation
 * removed (letters of every script kept), a leading "the" / "a" / "an" dropped, whitespace collapsed.
 */
export function normalizeTitle(title: string): string {
  let s = title.normalize('NFD').replace(/[\u0300-\u036f]/g, '');
  s = s.replace(/[ßæÆœŒøØđĐłŁþðı]/g, (c) => FOLD[c] ?? c).toLowerCase();
  s = s.replace(/&/g, ' and ').replace(/['’`´]/g, '').replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
  if (s.startsWith('the ')) s = s.slice(4);
  else if (s.startsWith('a ')) s = s.slice(2);
  else if (s.startsWith('an ')) s = s.slice(3);
  return s;
}
