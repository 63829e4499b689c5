/**
 * Screenshots of every page at a desktop and a phone width, on a temp install seeded with a small
 * but realistic library (long names, deep paths, real media): what a reviewer looks at before
 * saying the UI works on both screens. Also prints how wide each page is, since a page wider than
 * its viewport scrolls sideways.
 *
 *   pnpm exec tsx scripts/screenshots.ts [out-dir]      (default var/screenshots; build the web app first)
 */
import { execFileSync } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { TEST_API_KEY } from '@mo/test-support/service';
import { startStack, type BrowserStack } from '../test/browser/support/stack.ts';
import { logIn, setUpOwner } from '../test/browser/support/owner.ts';

const WIDTHS = [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'phone', width: 390, height: 844 },
] as const;

const PAGES = ['Activity', 'Downloads', 'Library', 'Wanted', 'Subtitles', 'Transcodes', 'Duplicates', 'Settings', 'System'];

const FEATURE = 'The Lord of the Rings - The Fellowship of the Ring (2001)';

/** A second of real video with English and Japanese audio, as a release would carry. */
function makeMedia(file: string): void {
  // prettier-ignore
  execFileSync('ffmpeg', [
    '-v', 'error',
    '-f', 'lavfi', '-i', 'testsrc=size=160x120:rate=10',
    '-f', 'lavfi', '-i', 'sine=frequency=440',
    '-f', 'lavfi', '-i', 'sine=frequency=660',
    '-map', '0', '-map', '1', '-map', '2', '-t', '1',
    '-c:v', 'mpeg4', '-c:a', 'aac',
    '-metadata:s:a:0', 'language=eng', '-metadata:s:a:1', 'language=jpn',
    '-y', file,
  ]);
}

async function seed(stack: BrowserStack): Promise<string> {
  const { paths } = stack.install;
  const files: string[] = [
    join(paths.drive, 'Movies', FEATURE, `${FEATURE} Extended Edition Bluray-1080p.mkv`),
    join(paths.drive, 'Movies', 'Heat (1995)', 'Heat (1995) Bluray-2160p.mkv'),
    join(paths.drive, 'Movies', 'Zulu (1964)', 'Zulu (1964).mp4'),
    // The same film in a folder named as its release was: a duplicate the index reads as Heat (1995).
    join(paths.drive, 'Movies', 'Heat.1995.1080p.BluRay.x264-GRP', 'Heat.1995.1080p.BluRay.x264-GRP.mkv'),
    ...[1, 2, 4].map((e) =>
      join(paths.drive, 'TV', 'Star Trek - The Next Generation', 'Season 01', `Star Trek - The Next Generation - S01E0${e} - Episode ${e}.mkv`),
    ),
    join(paths.drive, 'TV', 'Chihayafuru', 'Season 03', 'Chihayafuru - S03E21 - A Poem of Autumn Leaves.mkv'),
  ];
  for (const f of files) {
    await mkdir(dirname(f), { recursive: true });
    makeMedia(f);
  }
  for (const [folder, colour] of [
    [join(paths.drive, 'Movies', 'Heat (1995)', 'poster.jpg'), 'darkred'],
    [join(paths.drive, 'TV', 'Star Trek - The Next Generation', 'folder.jpg'), 'navy'],
  ] as const) {
    execFileSync('ffmpeg', ['-v', 'error', '-f', 'lavfi', '-i', `color=c=${colour}:s=200x300`, '-frames:v', '1', '-y', folder]);
  }
  // What an upgrade would have put in the bin: the layout GET /api/recycle lists.
  const binned = join(paths.drive, '.recycle', new Date().toISOString().slice(0, 10), 'Movies', 'Zulu (1964)', 'Zulu (1964) DVD.avi');
  await mkdir(dirname(binned), { recursive: true });
  await writeFile(binned, Buffer.alloc(8192));
  await writeFile(join(paths.drive, 'Movies', 'Heat (1995)', 'Heat (1995) Bluray-2160p.en.srt'), '1\n00:00:00,000 --> 00:00:01,000\nHello\n');
  const downloads = [
    'The.Lord.of.the.Rings.The.Two.Towers.2002.EXTENDED.REMASTERED.1080p.BluRay.x264.DTS-HD.MA.6.1-SWTYBLZ/The.Lord.of.the.Rings.The.Two.Towers.2002.EXTENDED.REMASTERED.1080p.BluRay.x264.DTS-HD.MA.6.1-SWTYBLZ.mkv',
    'Star.Trek.The.Next.Generation.S01E03.Code.of.Honor.1080p.BluRay.x264-ROVERS.mkv',
    'Some.Home.Video.From.Last.Summer.mkv',
  ];
  for (const d of downloads) {
    const file = join(paths.downloads, d);
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, Buffer.alloc(4096));
  }
  // Each POST waits for its job, so the pages show the finished scans.
  const job = async (path: string) => {
    const res = await fetch(`${stack.baseUrl}${path}?wait=120`, { method: 'POST', headers: { 'x-api-key': TEST_API_KEY } });
    if (res.status !== 200) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  };
  await job('/api/library/scan');
  await job('/api/scan');
  return files[0]!;
}

async function shoot(page: Page, out: string, name: string, width: number): Promise<string> {
  await page.waitForLoadState('networkidle');
  await page.screenshot({ path: join(out, `${name}.png`), fullPage: true });
  const wide = await page.evaluate(() => Math.max(document.documentElement.scrollWidth, document.body.scrollWidth));
  return `${name.padEnd(22)} ${String(wide).padStart(5)} px wide${wide > width ? '  <- scrolls sideways' : ''}`;
}

async function main() {
  const out = resolve(process.argv[2] ?? 'var/screenshots');
  await mkdir(out, { recursive: true });
  const stack = await startStack({ toml: '[app]\nsettle_seconds = 0\nscan_interval_seconds = 0\nwatch = false\n\n[library]\nsample_max_bytes = 0\n' });
  const lines: string[] = [];
  try {
    await setUpOwner(stack);
    const file = await seed(stack);
    for (const w of WIDTHS) {
      const page = await stack.newPage();
      await page.setViewportSize({ width: w.width, height: w.height });
      await page.goto('/');
      lines.push(await shoot(page, out, `${w.name}-login`, w.width));
      await logIn(page, 'Activity');
      for (const name of PAGES) {
        await page.goto(`/${name.toLowerCase()}`);
        await page.getByRole('heading', { level: 1, name, exact: true }).waitFor();
        lines.push(await shoot(page, out, `${w.name}-${name.toLowerCase()}`, w.width));
      }
      await page.goto(`/library/file?path=${encodeURIComponent(file)}`);
      await page.getByRole('heading', { level: 1 }).waitFor();
      lines.push(await shoot(page, out, `${w.name}-file`, w.width));
      await page.goto(`/library/folder?path=${encodeURIComponent(dirname(file))}`);
      await page.getByRole('heading', { level: 2 }).first().waitFor();
      lines.push(await shoot(page, out, `${w.name}-folder`, w.width));
      await page.goto('/library/recycle');
      await page.getByRole('heading', { level: 1 }).waitFor();
      lines.push(await shoot(page, out, `${w.name}-recycle`, w.width));
      // The release-named Heat folder and its file are what the templates would rename.
      await page.goto('/library/organize');
      await page.getByRole('heading', { level: 1 }).waitFor();
      lines.push(await shoot(page, out, `${w.name}-organize`, w.width));
      await stack.closePages();
    }
  } finally {
    await stack.stop();
  }
  console.log(`${lines.join('\n')}\nscreenshots in ${out}`);
}

await main();
