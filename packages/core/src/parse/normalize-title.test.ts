import { describe, expect, it } from 'vitest';
import { normalizeTitle } from './normalize-title.ts';

describe('normalizeTitle', () => {
  it('lowercases, strips accents and punctuation, &→and, drops leading articles', () => {
    expect(normalizeTitle('The Lord of the Rings: The Two Towers')).toBe('lord of the rings the two towers');
    expect(normalizeTitle('Amélie')).toBe('amelie');
    expect(normalizeTitle('Law & Order')).toBe('law and order');
    expect(normalizeTitle("Ocean's Eleven")).toBe('oceans eleven');
    expect(normalizeTitle('  A   Quiet   Place ')).toBe('quiet place');
    expect(normalizeTitle('An American Werewolf in London')).toBe('american werewolf in london');
    expect(normalizeTitle('Spider-Man: No Way Home')).toBe('spider man no way home');
    expect(normalizeTitle('Straße')).toBe('strasse');
    expect(normalizeTitle('The')).toBe('the');
  });

  it('makes scene and library spellings of a title compare equal', () => {
    expect(normalizeTitle('Oceans Eleven')).toBe(normalizeTitle("Ocean's Eleven"));
    expect(normalizeTitle('Pokemon Detective Pikachu')).toBe(normalizeTitle('Pokémon: Detective Pikachu'));
  });

  it('keeps the letters of every script, so two titles in another script stay apart', () => {
    expect(normalizeTitle('進撃の巨人')).toBe('進撃の巨人');
    expect(normalizeTitle('Тёмная гавань')).not.toBe(normalizeTitle('Светлая гавань'));
    expect(normalizeTitle('進撃の巨人')).not.toBe(normalizeTitle('鬼滅の刃'));
  });
});
