import { describe, expect, it } from 'vitest';
import { mappedRoots, mapPath, unmapPath } from './path-map.ts';

const map = [
  { from: '/media', to: '/mnt/media' },
  { from: '/media/disk2', to: '/mnt/nas/disk2/' },
  { from: '/downloads/', to: '/srv/dl' },
];

describe('mapPath and unmapPath', () => {
  it('swaps the longest matching prefix, at a folder boundary only', () => {
    expect(mapPath('/media/disk1/Movies/A.mkv', map)).toBe('/mnt/media/disk1/Movies/A.mkv');
    expect(mapPath('/media/disk2/TV/B.mkv', map)).toBe('/mnt/nas/disk2/TV/B.mkv');
    expect(mapPath('/media2/A.mkv', map)).toBe('/media2/A.mkv');
    expect(mapPath('/downloads/x.mkv', map)).toBe('/srv/dl/x.mkv');
    expect(mapPath('/media', map)).toBe('/mnt/media');
    expect(mapPath('/elsewhere/a.mkv', map)).toBe('/elsewhere/a.mkv');
    expect(mapPath('/a.mkv', [])).toBe('/a.mkv');
  });

  it('undoes itself', () => {
    for (const p of ['/media/disk1/Movies/A.mkv', '/media/disk2/TV/B.mkv', '/downloads/x.mkv']) {
      expect(unmapPath(mapPath(p, map), map)).toBe(p);
    }
  });

  it('handles the root on either side', () => {
    expect(mapPath('/x/a.mkv', [{ from: '/', to: '/mnt' }])).toBe('/mnt/x/a.mkv');
    expect(unmapPath('/mnt/x/a.mkv', [{ from: '/', to: '/mnt' }])).toBe('/x/a.mkv');
    expect(mapPath('/mnt/x/a.mkv', [{ from: '/mnt', to: '/' }])).toBe('/x/a.mkv');
  });

  it('gives the roots both as named and as mounted here', () => {
    expect(mappedRoots(['/media/disk1', '/mnt/other'], map)).toEqual(['/media/disk1', '/mnt/other', '/mnt/media/disk1']);
  });
});
