import { useEffect, useMemo, useRef, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from 'wouter';
import { api, unwrap } from '../api/client.ts';
import { useLiveJobs } from '../api/live.ts';
import { queryKeys, type Queue } from '../api/query-keys.ts';
import { ConfirmDialog } from '../components/confirm-dialog.tsx';
import { count, organizeQuestion } from '../components/confirm-text.ts';
import { NotScanned, ScannedAt } from '../components/not-scanned.tsx';
import { PathText } from '../components/path-text.tsx';
import { DryRunBadge, Empty, ErrorNote, Loading, Page, useConfig, useRowWindow } from '../components/ui.tsx';
import {
  chosenCounts,
  chosenPaths,
  groupRenames,
  groupState,
  libraryRoots,
  nameOf,
  pathsOf,
  readApplyAnswer,
  readCount,
  readRenamed,
  toggleGroup,
  type ApplyAnswer,
  type Group,
  type Line,
  type Rename,
  type Renamed,
} from './organize-rows.ts';

/** What a line renames, below its movie or series folder: `Season 1/the.office.s01e02.mkv` → `The Office - S01E02.mkv`. */
function LineText({ line, folder }: { line: Line; folder: string }) {
  const { from, to, kind } = line.rename;
  const before = kind === 'folder' || !from.startsWith(`${folder}/`) ? nameOf(from) : from.slice(folder.length + 1);
  return (
    <span className="rename">
      <span className="path">{before}</span> <span aria-hidden="true">→</span>
      <span className="sr-only">to</span> <span className="path">{nameOf(to)}</span>
      {kind === 'folder' ? <span className="muted"> (the folder)</span> : null}
    </span>
  );
}

function GroupBox({ group, unticked, onChange }: { group: Group; unticked: ReadonlySet<string>; onChange: (next: Set<string>) => void }) {
  const box = useRef<HTMLInputElement>(null);
  const state = groupState(group, unticked);
  useEffect(() => {
    if (box.current) box.current.indeterminate = state === 'some';
  }, [state]);
  const name = nameOf(group.folder);
  return (
    <fieldset className="organize-group" data-folder={group.folder}>
      <legend>
        <label>
          <input ref={box} type="checkbox" checked={state !== 'none'} onChange={() => onChange(toggleGroup(group, unticked))} />
          <span className="sr-only">Every rename in </span>
          {name}
        </label>{' '}
        <span className="muted">
          {group.holds === 'movie' ? 'Movie' : 'Series'} · {count(group.lines.length, 'rename')}
        </span>
      </legend>
      <p className="organize-folder">
        <PathText path={group.folder} />
      </p>
      <ul className="organize-lines">
        {group.lines.map((line) => {
          const off = unticked.has(line.rename.from);
          return (
            <li key={line.rename.from} data-from={line.rename.from}>
              <label>
                <input
                  type="checkbox"
                  checked={!off}
                  onChange={() => {
                    const next = new Set(unticked);
                    if (off) next.delete(line.rename.from);
                    else next.add(line.rename.from);
                    onChange(next);
                  }}
                />
                <LineText line={line} folder={group.folder} />
              </label>
              <small className="muted organize-reason">
                Because {line.rename.reason}
                {line.sidecars.length > 0 ? `; ${count(line.sidecars.length, 'subtitle or info file', 'subtitle and info files')} follow it` : ''}.
              </small>
            </li>
          );
        })}
      </ul>
    </fieldset>
  );
}

/** The list of what a dry run would rename. */
function WouldRename({ renames }: { renames: Rename[] }) {
  return (
    <div role="status" data-testid="organize-dry-run">
      <p>
        Dry run: nothing was renamed. With dry run off,{' '}
        {renames.length === 1 ? 'this rename would be made' : `these ${count(renames.length, 'rename')} would be made`}:
      </p>
      <ul className="organize-result">
        {renames.map((r) => (
          <li key={r.from}>
            <span className="path">{nameOf(r.from)}</span> → <span className="path">{nameOf(r.to)}</span>
          </li>
        ))}
      </ul>
    </div>
  );
}

function Result({ result }: { result: Renamed }) {
  return (
    <div role="status" data-testid="organize-result">
      <p>
        Renamed {count(result.renamed.length, 'file or folder', 'files and folders')}
        {result.skipped.length > 0 ? `; ${count(result.skipped.length, 'was', 'were')} left as ${result.skipped.length === 1 ? 'it was' : 'they were'}:` : '.'}
      </p>
      {result.skipped.length > 0 ? (
        <ul className="organize-result">
          {result.skipped.map((s) => (
            <li key={s.from}>
              <PathText path={s.from} />: {s.reason}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

/** A running apply's count of renames done, from the live events (or the last poll before the first). */
function Progress({ progress, dryRun }: { progress: unknown; dryRun: boolean }) {
  const c = readCount(progress);
  return (
    <p role="status" className="organize-progress">
      {dryRun ? 'Listing what would be renamed…' : 'Renaming…'}{' '}
      {c ? (
        <>
          <progress max={Math.max(c.total, 1)} value={c.done} aria-label="Renames done" /> {c.done.toLocaleString('en')} of {c.total.toLocaleString('en')}
        </>
      ) : null}
    </p>
  );
}

const isQueue = (q: string): q is Queue => ['scan', 'library', 'media', 'transcode', 'notify'].includes(q);

/**
 * Apply and what came of it: the POST waits for the job (the API's default wait) and may answer
 * its result; a longer one answers 202 and is followed by polling its status, its progress coming
 * live from the event stream meanwhile.
 */
function useApply() {
  const queries = useQueryClient();
  const [answer, setAnswer] = useState<ApplyAnswer | null>(null);
  const refresh = async () => {
    for (const key of [queryKeys.library.all(), queryKeys.history(), queryKeys.dashboard()]) await queries.invalidateQueries({ queryKey: key });
  };
  const post = useMutation({
    mutationFn: async (paths: string[] | undefined) => readApplyAnswer(await unwrap(api.POST('/api/library/organize', { body: paths ? { paths } : {} }))),
    onMutate: () => setAnswer(null),
    onSuccess: async (a) => {
      setAnswer(a);
      if (a.kind === 'done') await refresh();
    },
  });
  const queued = answer?.kind === 'queued' && isQueue(answer.job.queue) ? { queue: answer.job.queue, id: answer.job.id } : null;
  const job = useQuery({
    queryKey: queryKeys.jobs.one(queued ? `${queued.queue}/${queued.id}` : ''),
    queryFn: () => unwrap(api.GET('/api/jobs/{queue}/{id}', { params: { path: queued! } })),
    enabled: queued !== null,
    refetchInterval: (q) => (q.state.data?.state === 'completed' || q.state.data?.state === 'failed' ? false : 2000),
  });
  const finished = job.data?.state === 'completed' || job.data?.state === 'failed';
  useEffect(() => {
    // Once, when the followed job ends.
    if (finished) void refresh();
  }, [finished]);
  const live = useLiveJobs();
  // While the POST waits the job's id is unknown: the library job reporting a count is this one.
  const running = queued
    ? (live.find((j) => j.queue === queued.queue && j.id === queued.id)?.progress ?? job.data?.progress)
    : post.isPending
      ? live.find((j) => j.queue === 'library' && j.state === 'active' && readCount(j.progress) !== null)?.progress
      : undefined;
  const result = answer?.kind === 'done' ? answer.result : job.data?.state === 'completed' ? readRenamed(job.data.result) : null;
  const failed = job.data?.state === 'failed' ? new Error(job.data.error ?? 'The renames stopped with an error.') : null;
  return {
    apply: (paths: string[] | undefined) => post.mutate(paths),
    busy: post.isPending || (queued !== null && !finished),
    running: post.isPending || (queued !== null && !finished) ? { progress: running } : null,
    dryRun: answer?.kind === 'dry_run' ? answer.renames : null,
    // An answer of a shape this page does not know: the job ran or runs, and Activity has it.
    unread: answer?.kind === 'unknown',
    result,
    error: post.error ?? job.error ?? failed,
    reset: () => {
      post.reset();
      setAnswer(null);
    },
  };
}

export function OrganizePage() {
  const config = useConfig().data;
  const organize = useQuery({ queryKey: queryKeys.library.organize(), queryFn: () => unwrap(api.GET('/api/library/organize')) });
  const [unticked, setUnticked] = useState<ReadonlySet<string>>(new Set());
  const [asking, setAsking] = useState(false);
  const run = useApply();
  const groups = useMemo(() => {
    if (!organize.data || !config) return [];
    const extensions = config.library.video_extensions.map((e) => e.toLowerCase());
    const isVideo = (path: string) => extensions.some((e) => path.toLowerCase().endsWith(e));
    return groupRenames(organize.data.renames, libraryRoots(config), isVideo);
  }, [organize.data, config]);
  const shown = useRowWindow(groups, groupText);
  const { files, folders } = chosenCounts(groups, unticked);
  const chosen = files + folders;
  const data = organize.data;

  return (
    <Page
      id="organize"
      title="Organize"
      actions={
        <>
          <DryRunBadge />
          <button
            type="button"
            aria-haspopup="dialog"
            disabled={chosen === 0 || run.busy}
            onClick={() => {
              run.reset();
              setAsking(true);
            }}
          >
            Apply ({chosen.toLocaleString('en')})
          </button>
        </>
      }
    >
      <p className="muted">
        Library files and folders whose names are not what the templates give, from the last library scan. Untick what should keep its name, then Apply; each
        rename stays in its folder on its drive and can be undone under Activity. <Link href="/library">Back to the library</Link>
      </p>
      <ErrorNote error={organize.error} />
      <ErrorNote error={run.error} />
      {run.running ? <Progress progress={run.running.progress} dryRun={config?.app.dry_run === true} /> : null}
      {run.unread ? <p role="status">The renames were sent; Activity shows how they went.</p> : null}
      {run.dryRun ? <WouldRename renames={run.dryRun} /> : null}
      {run.result ? <Result result={run.result} /> : null}
      {organize.isPending ? <Loading what="the proposed renames" /> : null}
      {data && data.scanned_at === null ? <NotScanned what="The renames it proposes show here once Scan library has read the drives." /> : null}
      {data?.scanned_at && data.renames.length === 0 ? <Empty>Every name already matches the templates.</Empty> : null}
      {data?.scanned_at && groups.length > 0 ? (
        <>
          <p className="summary" data-testid="organize-summary">
            {count(data.renames.length, 'rename')} proposed in {count(groups.length, 'movie or series', 'movies and series')}; {count(chosen, 'is', 'are')}{' '}
            ticked. <ScannedAt at={data.scanned_at} />
          </p>
          <div className="toolbar">
            <button type="button" className="link" onClick={() => setUnticked(new Set())} disabled={unticked.size === 0}>
              Tick all
            </button>
            <button
              type="button"
              className="link"
              onClick={() => setUnticked(new Set(groups.flatMap((g) => g.lines.map((l) => l.rename.from))))}
              disabled={chosen === 0}
            >
              Untick all
            </button>
          </div>
          {shown.controls}
          <div className="organize-groups" aria-label="Proposed renames" role="group">
            {shown.shown.map((g) => (
              <GroupBox key={g.folder} group={g} unticked={unticked} onChange={setUnticked} />
            ))}
          </div>
          {shown.more}
        </>
      ) : null}
      {asking ? (
        <ConfirmDialog
          question={organizeQuestion(files, folders)}
          onCancel={() => setAsking(false)}
          onConfirm={() => {
            setAsking(false);
            run.apply(chosenPaths(groups, unticked));
          }}
        />
      ) : null}
    </Page>
  );
}

/** What the filter box matches: the folder and every name before and after. */
function groupText(g: Group): string {
  return [g.folder, ...g.lines.flatMap((l) => [...pathsOf(l), nameOf(l.rename.to)])].join('\n');
}
