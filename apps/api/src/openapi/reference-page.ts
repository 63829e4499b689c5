/* eslint-disable @typescript-eslint/no-explicit-any -- it walks the generated OpenAPI document as loose JSON */
function escape(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** Pretty JSON whose `$ref`s to a named schema link to it further down the page. */
function json(v: unknown): string {
  return `<pre>${escape(JSON.stringify(v, null, 2)).replace(/&quot;#\/components\/schemas\/(\w+)&quot;/g, '<a href="#schema-$1">&quot;$1&quot;</a>')}</pre>`;
}

/** A self-contained reference: a NAS behind a firewall may not reach a CDN for a docs bundle. */
export function referencePage(document: { paths: Record<string, Record<string, any>>; components: { schemas: Record<string, unknown> } }): string {
  const operations = Object.entries(document.paths).flatMap(([path, ops]) => Object.entries(ops).map(([method, op]) => ({ path, method, op })));
  const sections = operations
    .map(({ path, method, op }) => {
      const params = (op.parameters ?? [])
        .map((p: any) => `<li><code>${escape(p.name)}</code> (${p.in}${p.required ? ', required' : ''}): ${escape(p.description)}</li>`)
        .join('');
      const body = op.requestBody ? `<details><summary>Request body</summary>${json(op.requestBody.content['application/json'].schema)}</details>` : '';
      const responses = Object.entries(op.responses as Record<string, any>)
        .map(([status, res]) => {
          const schema = res.content?.['application/json']?.schema;
          return schema
            ? `<details><summary>${status} ${escape(res.description)}</summary>${json(schema)}</details>`
            : `<div class="plain">${status} ${escape(res.description)}</div>`;
        })
        .join('');
      const open = Array.isArray(op.security) && op.security.length === 0;
      return `<section id="${escape(method + path)}"><h2><span class="m ${method}">${method.toUpperCase()}</span> <code>${escape(path)}</code></h2>
<p>${escape(op.summary)}${op.description ? `. ${escape(op.description)}` : ''}${open ? ' <em>(no API key needed)</em>' : ''}</p>
${params ? `<ul>${params}</ul>` : ''}${body}${responses}</section>`;
    })
    .join('\n');
  const schemas = Object.entries(document.components.schemas)
    .map(([name, schema]) => `<section id="schema-${escape(name)}"><h3><code>${escape(name)}</code></h3>${json(schema)}</section>`)
    .join('\n');
  // Blocks wrap their long lines: one that scrolled would have to be reachable by keyboard.
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>media-organizer API</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="theme/custom.css">
<style>body{font:15px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem}
section{border-top:1px solid #ddd;padding:.5rem 0}h2{font-size:1.05rem}.m{padding:.1rem .4rem;border-radius:3px;color:#fff;font-size:.8rem}
.get{background:#2b7a3d}.post{background:#1f5fa8}pre{background:#f6f6f6;padding:.5rem;white-space:pre-wrap;overflow-wrap:anywhere;font-size:.8rem}.plain{margin:.2rem 0}</style>
</head><body><h1>media-organizer API</h1>
<p>Every route lives under <code>/api</code>. Machine-readable: <a href="openapi.json">openapi.json</a> (OpenAPI 3.1). Errors are
<code>{"error": {"code", "message", "details"}}</code>. When an API key is set, send it as <code>X-Api-Key</code>,
<code>Authorization: Bearer</code> or <code>?api_key=</code>.</p>
${sections}
<h2 id="schemas">Schemas</h2>
${schemas}</body></html>`;
}
