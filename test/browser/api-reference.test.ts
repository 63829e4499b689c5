import { describe, expect, it } from 'vitest';
import { checkA11y, useStack } from './support/stack.ts';

const stack = useStack();

describe('the API reference, in a browser', () => {
  it('has no serious or critical accessibility violations', async () => {
    const page = await stack().newPage({ apiKey: true });
    const res = await page.goto('/api/docs');
    expect(res?.status()).toBe(200);
    await checkA11y(page);
  });
});

describe('the browser harness', () => {
  it('checkA11y fails with the rule, its impact and the element, even where the CSP forbids scripts', async () => {
    const page = await stack().newPage();
    await page.setContent(`<!doctype html><html lang="en"><head><title>t</title>
<meta http-equiv="Content-Security-Policy" content="default-src 'none'"></head>
<body><main><img src="data:,"></main></body></html>`);
    await expect(checkA11y(page)).rejects.toThrow(/critical image-alt: .*\n\s+img/);
  });

  it('fails a test whose page threw an uncaught error', async () => {
    const page = await stack().newPage();
    const thrown = page.waitForEvent('pageerror');
    await page.setContent('<script>setTimeout(() => { throw new Error("boom") })</script>');
    await thrown;
    await expect(stack().closePages()).rejects.toThrow(/uncaught errors in the page:\n.*boom/);
  });
});
