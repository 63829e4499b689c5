import { describe, expect, it } from 'vitest';
import { withoutFraming } from './refuse-framing.ts';

describe('withoutFraming', () => {
  it("adds frame-ancestors 'none' to a page's policy, or makes it the whole policy", () => {
    expect(withoutFraming(null)).toBe("frame-ancestors 'none'");
    expect(withoutFraming("font-src 'self' data:")).toBe("font-src 'self' data:; frame-ancestors 'none'");
  });

  it('replaces a frame-ancestors that would let a site frame the page, whatever its case or spacing', () => {
    expect(withoutFraming("default-src 'self';  FRAME-ANCESTORS https://evil.example ; img-src data:;")).toBe("default-src 'self'; img-src data:; frame-ancestors 'none'");
    expect(withoutFraming("frame-ancestors *")).toBe("frame-ancestors 'none'");
  });
});
