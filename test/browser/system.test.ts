import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { logIn } from './support/owner.ts';
import { checkA11y, useStack } from './support/stack.ts';

// A worker that leaves the media queue to nobody, and a second drive on /dev/shm (a mount of its
// own on Linux, where no link from the temp downloads folder reaches): the System page must say so.
const shm = mkdtempSync(join(existsSync('/dev/shm') ? '/dev/shm' : tmpdir(), 'mo-browser-drive-'));
afterAll(() => rmSync(shm, { recursive: true, force: true }));
const stack = useStack({
  workerEnv: { WORKER_QUEUES: 'scan,library,transcode,notify' },
  toml: `[[drives]]\nname = "fast"\npath = "${shm}"\n`,
});

describe('the System page, in a browser', () => {
  it('lists the worker with its queues, concurrency and working encoders, and warns about the queue no worker takes', async () => {
    const page = await stack().newPage();
    const token = new URL(await stack().setupUrl()).searchParams.get('token')!;
    await page.goto(`/?token=${token}`);
    await page.getByLabel('Username').fill('owner');
    await page.getByLabel('Password').fill('a good passphrase');
    await page.getByRole('button', { name: 'Create owner' }).click();
    await page.getByRole('heading', { level: 1, name: 'Activity' }).waitFor();
    await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'System', exact: true }).click();
    await page.getByRole('heading', { level: 2, name: 'Workers' }).waitFor();

    const warning = page.getByRole('alert').filter({ hasText: 'No worker' });
    await warning.getByText('No worker takes media jobs').waitFor();
    expect(await warning.locator('[data-queue]').evaluateAll((ps) => ps.map((p) => p.getAttribute('data-queue')))).toEqual(['media']);

    const row = page.locator('tr[data-worker]');
    expect(await row.count()).toBe(1);
    const cells = row.locator('td');
    expect(await cells.nth(0).textContent()).toBe(`${hostname()} pid ${stack().worker.proc.pid}`);
    expect(await cells.nth(1).textContent()).toBe('scan, library, transcode, notify');
    expect(await cells.nth(2).textContent()).toBe('scan 1, library 1, transcode 1, notify 1');
    // The encoder test runs as the worker starts; the list refreshes every 10 s until it shows.
    await row.getByTestId('encoders').waitFor({ timeout: 15_000 });
    expect(await row.getByTestId('encoders').textContent()).toBe('libx264');
    expect(await cells.nth(5).textContent()).toBe('alive');
    await checkA11y(page);
  });

  it.skipIf(!existsSync('/dev/shm'))('warns that a drive on another mount than the downloads takes no hard links, and says how to mount them', async () => {
    const page = await stack().newPage();
    // The first test made the owner through the set-up link.
    await logIn(page, 'Activity');
    await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'System', exact: true }).click();
    const warning = page.getByTestId('hardlinks-warning');
    await warning.waitFor();
    expect(await warning.getAttribute('role')).toBe('alert');
    expect(await warning.locator('strong').textContent()).toBe('fast');
    const text = (await warning.textContent())!;
    expect(text).toContain('separate mount of the same one');
    expect(text).toContain('Hardlink mode copies each file instead, and move copies then deletes.');
    expect(text).toContain('Mount one folder that holds both the downloads and the drive, once');
    // The worker that imports said so at its start, naming both mounts.
    expect(stack().worker.output()).toMatch(new RegExp(`"drive":"fast".*and drive fast \\(${shm}, mount /dev/shm\\) lie on different filesystems`));
    await checkA11y(page);
  });
});
