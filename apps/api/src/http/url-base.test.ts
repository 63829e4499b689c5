import { describe, expect, it } from 'vitest';
import { withoutUrlBase } from './url-base.ts';

describe('withoutUrlBase', () => {
  it.each([
    ['/media-organizer/setup?token=abc', '/setup?token=abc'],
    ['/media-organizer/api/events', '/api/events'],
    ['/media-organizer/', '/'],
    ['/media-organizer', '/'],
    ['/media-organizer?token=abc', '/?token=abc'],
  ])('reads %j under URL_BASE as the proxy would pass it: %j', (target, path) => {
    expect(withoutUrlBase(target, '/media-organizer')).toBe(path);
  });

  it.each(['/api/health', '/media-organizers/x', '/media-organizerx', '/', '/assets/index.js', '/x/media-organizer/api'])(
    'leaves %j, outside URL_BASE, as it is',
    (target) => {
      expect(withoutUrlBase(target, '/media-organizer')).toBe(target);
    },
  );

  it('changes nothing without a URL_BASE', () => {
    expect(withoutUrlBase('/media-organizer/api/health', '')).toBe('/media-organizer/api/health');
  });
});
