import { describe, expect, it } from 'vitest';
import { toldApart } from './library-rows.ts';

describe('toldApart', () => {
  it('names the folders of rows that share a title on one drive, and only those', () => {
    const row = (title: string, drive: string, folder: string) => ({ title, drive, folder, detail: '1 file' });
    const rows = [
      row('Alien (1979)', 'disk1', '/m/disk1/Movies/Alien (1979)'),
      row('Alien (1979)', 'disk1', '/m/disk1/Movies/Alien.1979.Directors.Cut'),
      row('Alien (1979)', 'disk2', '/m/disk2/Movies/Alien (1979)'),
      row('Heat (1995)', 'disk1', '/m/disk1/Movies/Heat (1995)'),
    ];
    expect(toldApart(rows).map((r) => r.detail)).toEqual(['1 file · Alien (1979)', '1 file · Alien.1979.Directors.Cut', '1 file', '1 file']);
  });
});
