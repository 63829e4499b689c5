const NOCSS_KEY = 'mo.nocss';
const OWNER_ID = 'owner-css';

/**
 * `?nocss=1` turns the owner's stylesheet off for the whole visit (this tab), `?nocss=0` back on.
 * Without storage the address alone decides.
 */
export function ownerStylesheetWanted(search: string, session: Storage | null): boolean {
  const flag = new URLSearchParams(search).get('nocss');
  if (flag === '1') session?.setItem(NOCSS_KEY, '1');
  if (flag === '0') session?.removeItem(NOCSS_KEY);
  return flag !== '1' && (flag === '0' || session?.getItem(NOCSS_KEY) !== '1');
}

/** The tab's storage; null where reading it throws: a frame in a dashboard of another site, where the browser blocks third-party storage. */
function visitStorage(): Storage | null {
  try {
    return sessionStorage;
  } catch {
    return null;
  }
}

function isStylesheet(node: Node): boolean {
  return node instanceof HTMLStyleElement || (node instanceof HTMLLinkElement && node.rel === 'stylesheet');
}

/**
 * Links the owner's stylesheet last in <head> and keeps it last: styles injected later (by Vite's
 * chunk loader or a library) would otherwise win ties against the owner's rules.
 */
export function installOwnerStylesheet(doc: Document = document): HTMLLinkElement | null {
  if (!ownerStylesheetWanted(doc.location.search, visitStorage())) return null;
  const link = doc.createElement('link');
  link.id = OWNER_ID;
  link.rel = 'stylesheet';
  link.href = 'api/theme/custom.css';
  doc.head.append(link);
  new MutationObserver((changes) => {
    const later = changes.some((c) => [...c.addedNodes].some((n) => n !== link && isStylesheet(n)));
    if (later && doc.head.lastElementChild !== link) doc.head.append(link);
  }).observe(doc.head, { childList: true });
  return link;
}

export function ownerStylesheetActive(doc: Document = document): boolean {
  return doc.getElementById(OWNER_ID) !== null;
}
