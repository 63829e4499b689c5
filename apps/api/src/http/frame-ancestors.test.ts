import { describe, expect, it } from 'vitest';
import { withFrameAncestors } from './frame-ancestors.ts';

describe('withFrameAncestors', () => {
  it("adds frame-ancestors 'none' to a page's policy, or makes it the whole policy", () => {
    expect(withFrameAncestors(null, [])).toBe("frame-ancestors 'none'");
    expect(withFrameAncestors("font-src 'self' data:", [])).toBe("font-src 'self' data:; frame-ancestors 'none'");
  });

  it('replaces a frame-ancestors that would let a site frame the page, whatever its case or spacing', () => {
    expect(withFrameAncestors("default-src 'self';  FRAME-ANCESTORS https://evil.example ; img-src data:;", [])).toBe(
      "default-src 'self'; img-src data:; frame-ancestors 'none'",
    );
    expect(withFrameAncestors('frame-ancestors *', [])).toBe("frame-ancestors 'none'");
  });

  it("names the owner's origins instead, and only them", () => {
    expect(withFrameAncestors("default-src 'self'; frame-ancestors *", ['https://dash.example.com', "'self'"])).toBe(
      "default-src 'self'; frame-ancestors https://dash.example.com 'self'",
    );
    expect(withFrameAncestors(null, ['http://192.168.1.5:8080'])).toBe('frame-ancestors http://192.168.1.5:8080');
  });
});
