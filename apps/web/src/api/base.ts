/**
 * Where the service lives: the API fills index.html's <base> with URL_BASE, so the page works at
 * `/` and behind a proxy prefix alike. `prefix` has no trailing slash ('' at the root).
 */
export function servicePrefix(doc: Document = document): string {
  return new URL('.', doc.baseURI).pathname.replace(/\/$/, '');
}

export function serviceOrigin(doc: Document = document): string {
  return new URL('.', doc.baseURI).origin;
}
