// What a user reads must stand on its own: a clone has the README, docs/ and the config the service
// writes, and nothing beside the checkout. So the README stays a guide (the rest lives in docs/),
// every link between them lands on a file and a heading that exist, no user-facing text sends the
// reader to the specification files the project was built from, and docs/api.md names every route.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createApp } from '@mo/api/app';
import { standaloneDocument } from '@mo/api/openapi';
import { loadFileConfig } from '@mo/core';
import { DEFAULT_CONFIG, driveSchema } from '@mo/shared';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../..');
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');

/** README.md and every Markdown file under docs/, as paths from the repository root. */
function userDocs(): string[] {
  const out = ['README.md'];
  const walk = (dir: string) => {
    for (const e of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
      if (e.isDirectory()) walk(`${dir}/${e.name}`);
      else if (e.name.endsWith('.md')) out.push(`${dir}/${e.name}`);
    }
  };
  walk('docs');
  return out;
}

/** Markdown without its code: a path shown in a code block or span is an example, not a link. */
const prose = (md: string) => md.replace(/^```[^\n]*\n[\s\S]*?^```$/gm, '').replace(/`[^`\n]*`/g, '');

/** The anchors GitHub gives a file's headings: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
function anchors(md: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const [, text] of md.replace(/^```[^\n]*\n[\s\S]*?^```$/gm, '').matchAll(/^#{1,6} +(.+?) *#*$/gm)) {
    const base = text!
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

/** Every relative link and image of a Markdown file whose target is missing, as `file: target (why)`. */
function brokenLinks(file: string): string[] {
  const broken: string[] = [];
  const md = read(file);
  for (const [, target] of prose(md).matchAll(/!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target!)) continue;
    const [path, anchor] = target!.split('#') as [string, string | undefined];
    const abs = path === '' ? join(ROOT, file) : resolve(ROOT, dirname(file), decodeURIComponent(path));
    const inRepo = relative(ROOT, abs);
    if (inRepo.startsWith('..')) broken.push(`${file}: ${target} (outside the repository)`);
    else if (!existsSync(abs)) broken.push(`${file}: ${target} (no such file)`);
    else if (anchor !== undefined && statSync(abs).isFile() && abs.endsWith('.md') && !anchors(readFileSync(abs, 'utf8')).has(anchor))
      broken.push(`${file}: ${target} (no such heading)`);
  }
  return broken;
}

/** The specification files of the project's own workspace, which a clone does not have. */
const OUTSIDE = /SPEC\.md|CONTRACT\.md|(?<![\w/.-])(?:\.\.\/)*shared\//;

/** The config files the service writes on a first start: the heredocs of the start script and the image's entrypoint. */
function writtenConfigs(): { path: string; text: string }[] {
  return ['scripts/start', 'deploy/entrypoint.sh'].flatMap((path) =>
    [...read(path).matchAll(/<<'?(\w+)'?\n([\s\S]*?)\n\1\n/g)].map((m) => ({ path: `${path} (<<${m[1]})`, text: m[2]! })),
  );
}

/** The web pages' source without its comments: what the pages show a user. */
function webText(): { path: string; text: string }[] {
  const out: { path: string; text: string }[] = [];
  const walk = (dir: string) => {
    for (const e of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
      const path = `${dir}/${e.name}`;
      if (e.isDirectory()) walk(path);
      else if (/\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name))
        out.push({
          path,
          text: read(path)
            .replace(/\/\*[\s\S]*?\*\//g, '')
            .replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1'),
        });
    }
  };
  walk('apps/web/src');
  return out;
}

describe('the user documentation', () => {
  it('keeps the README a guide: under 400 lines, with the "Beyond CONTRACT.md" list linked', () => {
    expect(read('README.md').split('\n').length).toBeLessThan(400);
    expect(read('README.md')).toMatch(/^## Beyond CONTRACT\.md\n\n[^#]*\(docs\/beyond-contract\.md\)/m);
  });

  it('links only to files and headings that exist in the repository', () => {
    expect(userDocs().length).toBeGreaterThan(5);
    expect(userDocs().flatMap(brokenLinks)).toEqual([]);
  });

  it('finds the broken links it is meant to find', () => {
    const md = '# Top\n\n## Manual import: `Import as…`\n\n[a](#manual-import-import-as) [b](#nope) `[c](gone.md)`\n';
    expect([...anchors(md)]).toEqual(['top', 'manual-import-import-as']);
    expect([...prose(md).matchAll(/\]\(([^)]+)\)/g)].map((m) => m[1])).toEqual(['#manual-import-import-as', '#nope']);
    expect(OUTSIDE.test('see shared/CONTRACT.md')).toBe(true);
    expect(OUTSIDE.test('the corpus ../shared/corpus/x.json')).toBe(true);
    expect(OUTSIDE.test('`packages/shared/src/index.ts`')).toBe(false);
  });

  it('never sends a reader to the specification files: not the README, docs/, the example config, the written configs or the web pages', () => {
    const texts = [
      // The list's own name, which the project's guide fixes; the section sends readers to docs/, not to the spec.
      ...userDocs().map((path) => ({ path, text: read(path).replace(/^## Beyond CONTRACT\.md$/m, '') })),
      { path: 'deploy/config.example.toml', text: read('deploy/config.example.toml') },
      ...writtenConfigs(),
      ...webText(),
    ];
    expect(writtenConfigs().length).toBe(2);
    expect(texts.filter(({ text }) => OUTSIDE.test(text)).map(({ path, text }) => `${path}: ${OUTSIDE.exec(text)![0]}`)).toEqual([]);
  });
});

describe('the OpenAPI document and docs/api.md', () => {
  const doc = standaloneDocument(createApp) as { paths: Record<string, object> };

  it('never send a reader to the specification files', () => {
    expect(JSON.stringify(doc)).not.toMatch(OUTSIDE);
  });

  it('docs/api.md names every path the document serves', () => {
    const api = read('docs/api.md');
    const paths = Object.keys(doc.paths).map((p) => p.replace(/\{(\w+)\}/g, '<$1>'));
    expect(paths.length).toBeGreaterThan(40);
    expect(paths.filter((p) => !api.includes(`\`${p}\``) && !new RegExp(`\`[A-Z]+ ${p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\``).test(api))).toEqual([]);
  });
});

describe('docs/configuration.md', () => {
  const block = /^```toml\n([\s\S]*?)^```$/m.exec(read('docs/configuration.md'))![1]!;

  it('lists every section and key of the defaults, each under its section', () => {
    const listed = new Set<string>();
    let section = '';
    for (const line of block.split('\n')) {
      const head = /^\[\[?([\w.]+)\]\]?/.exec(line);
      if (head) section = head[1]!;
      const key = /^(\w+) =/.exec(line);
      if (key) listed.add(`${section}.${key[1]}`);
    }
    // Every section is a table of keys but two: the drives are a list of tables, the providers a table of tables.
    const { drives, release_providers, ...tables } = DEFAULT_CONFIG;
    expect(drives).toEqual([]);
    const expected = [
      ...Object.entries(tables).flatMap(([name, table]) => Object.keys(table).map((k) => `${name}.${k}`)),
      ...Object.keys(driveSchema.shape).map((k) => `drives.${k}`),
      ...Object.keys(release_providers.tvmaze).map((k) => `release_providers.tvmaze.${k}`),
    ];
    expect(expected.filter((key) => !listed.has(key))).toEqual([]);
    expect([...listed].filter((key) => !expected.includes(key))).toEqual([]);
  });

  it('gives the defaults the service has: read as a config file, it is the defaults plus its example drive', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'mo-docs-'));
    try {
      await writeFile(join(dir, 'config.toml'), block);
      expect(await loadFileConfig(join(dir, 'config.toml'))).toEqual({ ...DEFAULT_CONFIG, drives: [{ name: 'disk1', path: '/media/disk1' }] });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
