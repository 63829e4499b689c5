import { describe, expect, it } from 'vitest';
import { hashPassword, verifyPassword } from './password.ts';

describe('password hashes', () => {
  it('are salted scrypt hashes that verify the password and nothing else', async () => {
    const a = await hashPassword('correct horse battery');
    const b = await hashPassword('correct horse battery');
    expect(a).toMatch(/^scrypt\$32768\$8\$1\$[\w-]+\$[\w-]+$/);
    expect(a).not.toBe(b);
    expect(a).not.toContain('correct');
    expect(await verifyPassword('correct horse battery', a)).toBe(true);
    expect(await verifyPassword('correct horse batterY', a)).toBe(false);
    expect(await verifyPassword('', a)).toBe(false);
  });

  it('compare passwords in one Unicode form (é typed as one character or as e and an accent)', async () => {
    const hash = await hashPassword('caf\u00e9 au lait!');
    expect(await verifyPassword('cafe\u0301 au lait!', hash)).toBe(true);
  });

  it('refuse a stored hash that is malformed or would make each check allocate too much', async () => {
    const good = await hashPassword('a long passphrase');
    expect(await verifyPassword('a long passphrase', 'plain text')).toBe(false);
    expect(await verifyPassword('a long passphrase', good.replace('$32768$', '$1048576$'))).toBe(false);
    expect(await verifyPassword('a long passphrase', good.replace(/\$1\$/, '$99$'))).toBe(false);
  });
});
