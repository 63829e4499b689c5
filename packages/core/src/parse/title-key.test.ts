import { describe, expect, it } from 'vitest';
import { sameTitle, titleKey } from './title-key.ts';

const key = (title: string) => titleKey(title).key;

describe('the title key', () => {
  it('lowercases, strips accents and punctuation, &→and, drops leading articles', () => {
    expect(key('The Lord of the Rings: The Two Towers')).toBe('lord of the rings the two towers');
    expect(key('Amélie')).toBe('amelie');
    expect(key('Law & Order')).toBe('law and order');
    expect(key("Ocean's Eleven")).toBe('oceans eleven');
    expect(key('  A   Quiet   Place ')).toBe('quiet place');
    expect(key('An American Werewolf in London')).toBe('american werewolf in london');
    expect(key('Spider-Man: No Way Home')).toBe('spider man no way home');
    expect(key('Straße')).toBe('strasse');
    expect(key('The')).toBe('the');
  });

  it('makes scene and library spellings of a title compare equal', () => {
    expect(key('Oceans Eleven')).toBe(key("Ocean's Eleven"));
    expect(key('Pokemon Detective Pikachu')).toBe(key('Pokémon: Detective Pikachu'));
  });

  it('keeps the letters of every script, so two titles in another script stay apart', () => {
    expect(key('進撃の巨人')).toBe('進撃の巨人');
    expect(key('Тёмная гавань')).not.toBe(key('Светлая гавань'));
    expect(key('進撃の巨人')).not.toBe(key('鬼滅の刃'));
  });
});

describe('sameTitle', () => {
  it('holds for spellings of one show and not for its remakes or other years', () => {
    expect(sameTitle('The Office', 'Office, The')).toBe(true);
    expect(sameTitle('S.H.I.E.L.D.', 'SHIELD')).toBe(true);
    expect(sameTitle('The Office (US)', 'The Office US')).toBe(true);
    expect(sameTitle('The Office (US)', 'The Office (UK)')).toBe(false);
    expect(sameTitle('Doctor Who (2005)', 'Doctor Who')).toBe(false);
    expect(sameTitle('Die Hard', 'Hard')).toBe(false);
  });
});
