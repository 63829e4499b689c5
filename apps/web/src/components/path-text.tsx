import { useState } from 'react';
import { Link } from 'wouter';
import { splitPath } from './format.ts';
import { useConfig } from './ui.tsx';

/** The folders a path is read from: the drives and the downloads folder, once the config is loaded. */
function useRoots(): string[] {
  const config = useConfig().data;
  return config ? [config.paths.downloads, ...config.drives.map((d) => d.path)] : [];
}

/**
 * A path as a phone can show it: below 720 px only the part under its drive or the downloads
 * folder (else the file name), with a button in place of the rest that reveals the whole path as
 * plain, selectable text. Wider screens show the whole path. The DOM always holds the whole path
 * and nothing else as text (the button's mark is drawn by CSS), so the path reads and copies as
 * stored.
 */
export function PathText({ path, href }: { path: string; href?: string }) {
  const { head, tail } = splitPath(path, useRoots());
  const [open, setOpen] = useState(false);
  const text = (
    <>
      {head ? <span className="path-head">{head}</span> : null}
      <span className="path-tail">{tail}</span>
    </>
  );
  return (
    <span className="path-text" data-open={open} data-full-path={path}>
      {head ? <button type="button" className="path-toggle" aria-expanded={open} aria-label="Whole path" onClick={() => setOpen(!open)} /> : null}
      {href ? (
        <Link href={href} className="path">
          {text}
        </Link>
      ) : (
        <span className="path">{text}</span>
      )}
    </span>
  );
}
