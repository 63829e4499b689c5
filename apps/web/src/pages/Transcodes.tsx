import { useMemo, useRef, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../api/client.ts';
import { useLiveJobs } from '../api/live.ts';
import { queryKeys } from '../api/query-keys.ts';
import { formatBytes, formatDuration } from '../components/format.ts';
import { ConfirmDialog } from '../components/confirm-dialog.tsx';
import { cancelAllQuestion, discardOriginalQuestion, transcodeAllQuestion, type Question } from '../components/confirm-text.ts';
import { JobProgress } from '../components/progress.tsx';
import { NotScanned, ScannedAt } from '../components/not-scanned.tsx';
import { PathText } from '../components/path-text.tsx';
import { DryRunBadge, Empty, ErrorNote, Loading, Page, Status, useConfig, useRowWindow } from '../components/ui.tsx';

type Answer = Awaited<ReturnType<typeof fetchQueue>>;
type Entry = Answer['queue'][number];
type Snapshot = NonNullable<Entry['result']>['before'];

const fetchQueue = () => unwrap(api.GET('/api/tools/transcoder'));

/** The file's name, which tells a row's buttons apart; the whole path would make them read as the path's cell. */
const fileName = (path: string) => path.slice(path.lastIndexOf('/') + 1);

const itemText = (i: Entry) => `${i.title ?? ''} ${i.path} ${i.status}`;

// Running first, then the line in the order it will run, then what has ended.
const STATUS_ORDER: Record<Entry['status'], number> = { running: 0, queued: 1, failed: 2, done: 3 };

function inLineOrder(entries: readonly Entry[]): Entry[] {
  return [...entries].sort((a, b) => STATUS_ORDER[a.status] - STATUS_ORDER[b.status] || (a.position ?? 0) - (b.position ?? 0));
}

/** Polled only while something moves: a running entry, or a job waiting for a worker that is free to take it. */
function moving(data: Answer | undefined): boolean {
  return !!data?.queue.some((e) => e.status === 'running' || (!data.paused && e.status === 'queued' && e.job_id !== null));
}

function codecs(s: Snapshot): string {
  return s.streams.map((x) => `${x.codec ?? x.type}${x.language ? ` ${x.language}` : ''}`).join(', ') || 'no streams';
}

function ResultSummary({ result }: { result: NonNullable<Entry['result']> }) {
  return (
    <span className="result" data-testid="result">
      <span>
        {formatBytes(result.before.bytes)} → {formatBytes(result.after.bytes)}
      </span>
      <span className="muted">
        {codecs(result.before)} → {codecs(result.after)}
      </span>
      <span className="muted">in {formatDuration(result.seconds)}</span>
    </span>
  );
}

/** A queued entry's priority: sent on Enter or when the field loses focus, once per value. */
function PriorityField({ entry, disabled, onSet }: { entry: Entry; disabled: boolean; onSet: (priority: number) => void }) {
  const [value, setValue] = useState(String(entry.priority));
  const sent = useRef(String(entry.priority));
  const submit = () => {
    const n = Number(value);
    if (value.trim() === '' || !Number.isFinite(n)) return setValue(String(entry.priority));
    if (value === sent.current) return;
    sent.current = value;
    onSet(n);
  };
  return (
    <form
      className="inline-form"
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      <input
        type="number"
        className="priority-input"
        step={1}
        min={-1_000_000}
        max={1_000_000}
        aria-label={`Priority of ${fileName(entry.path)}`}
        value={value}
        disabled={disabled}
        onChange={(e) => setValue(e.target.value)}
        onBlur={submit}
      />
    </form>
  );
}

function RunAllPlan({ plan }: { plan: { items: { item: { path: string }; command: string[] | null; error: string | null }[]; total: number } }) {
  return (
    <section className="command" aria-labelledby="all-h">
      <h2 id="all-h">Dry run: Run all would start {plan.total.toLocaleString()} transcodes</h2>
      {plan.items.length < plan.total ? <p className="muted">The first {plan.items.length.toLocaleString()} with their commands:</p> : null}
      <ol className="plan">
        {plan.items.map((p) => (
          <li key={p.item.path}>
            <p>
              <PathText path={p.item.path} />
            </p>
            {p.command ? (
              <pre>
                <code>{p.command.join(' ')}</code>
              </pre>
            ) : (
              <p className="error">{p.error}</p>
            )}
          </li>
        ))}
      </ol>
    </section>
  );
}

/** Every action of the page, each refreshing the queue once it has settled. */
function useTranscoderActions() {
  const queries = useQueryClient();
  const refresh = () => queries.invalidateQueries({ queryKey: queryKeys.transcoder() });
  const after = { onSettled: refresh };
  const runNext = useMutation({ mutationFn: () => unwrap(api.POST('/api/tools/transcoder/run-next')), ...after });
  // `expect`: how many entries the question named; the API queues none when another number waits.
  const runAll = useMutation({
    mutationFn: (expect?: number) => unwrap(api.POST('/api/tools/transcoder/run-all', { params: { query: { expect } } })),
    ...after,
  });
  // What Run all queued last is no longer what waits once the waiting jobs are cancelled.
  const cancelAll = useMutation({ mutationFn: () => unwrap(api.POST('/api/tools/transcoder/cancel-all')), onSuccess: () => runAll.reset(), ...after });
  const pause = useMutation({
    mutationFn: (paused: boolean) => unwrap(paused ? api.POST('/api/tools/transcoder/pause') : api.POST('/api/tools/transcoder/resume')),
    ...after,
  });
  const retry = useMutation({ mutationFn: (path: string) => unwrap(api.POST('/api/tools/transcoder/retry', { body: { path } })), ...after });
  const priority = useMutation({
    mutationFn: (body: { path: string; priority: number } | { path: string; top: true }) => unwrap(api.POST('/api/tools/transcoder/priority', { body })),
    ...after,
  });
  const cancel = useMutation({
    mutationFn: (id: string) => unwrap(api.POST('/api/jobs/transcode/{id}/cancel', { params: { path: { id } } })),
    ...after,
  });
  const discard = useMutation({
    mutationFn: (path: string) => unwrap(api.POST('/api/tools/transcoder/discard-original', { body: { path } })),
    ...after,
  });
  return { runNext, runAll, cancelAll, pause, retry, priority, cancel, discard };
}

/** The page's mutations, and how a row asks before one that removes a file. */
type Actions = ReturnType<typeof useTranscoderActions> & { ask: (a: Asking) => void };

/** What is asked before an action on many files, and what runs once the owner says yes. */
type Asking = { question: Question; go: () => void };

/**
 * Run all with dry run off asks first, from the queue as the API has it now (not as the page last
 * polled it): how many entries it would queue and whether their originals are deleted. In dry run
 * it only lists the commands, and asks nothing.
 */
function useAskRunAll(runAll: Actions['runAll'], ask: (a: Asking) => void) {
  const queries = useQueryClient();
  const config = useConfig();
  const [reading, setReading] = useState(false);
  const start = async () => {
    if (!config.data) return;
    if (config.data.app.dry_run) return runAll.mutate(undefined);
    setReading(true);
    try {
      const now = await queries.fetchQuery({ queryKey: queryKeys.transcoder(), queryFn: fetchQueue, staleTime: 0 });
      const line = now.queue.filter((e) => e.status === 'queued' && e.job_id === null);
      // Nothing to queue: the API's own answer says so, and nothing changes.
      if (line.length === 0) return runAll.mutate(0);
      ask({
        question: transcodeAllQuestion(
          line.map((e) => e.ext),
          config.data.transcoder.keep_original,
          now.paused,
          config.data.library.recycle_bin,
        ),
        go: () => runAll.mutate(line.length),
      });
    } catch {
      // The queue could not be read: nothing is asked, nothing runs; the page's own query shows why.
    } finally {
      setReading(false);
    }
  };
  return { start, busy: reading || runAll.isPending || !config.data };
}

function QueueButtons({ actions, loaded, paused, waiting, running }: { actions: Actions; loaded: boolean; paused: boolean; waiting: number; running: number }) {
  const { pause, runNext, runAll, cancelAll, ask } = actions;
  const all = useAskRunAll(runAll, ask);
  const askCancelAll = () => ask({ question: cancelAllQuestion(waiting, running), go: () => cancelAll.mutate() });
  return (
    <>
      <DryRunBadge />
      <span role="status">{paused ? <span className="badge badge-paused">Paused</span> : null}</span>
      {loaded ? (
        <button type="button" onClick={() => pause.mutate(!paused)} disabled={pause.isPending}>
          {paused ? 'Resume queue' : 'Pause queue'}
        </button>
      ) : null}
      <button type="button" onClick={() => runNext.mutate()} disabled={runNext.isPending}>
        Run next
      </button>
      <button type="button" onClick={() => void all.start()} disabled={all.busy} aria-haspopup="dialog">
        Run all
      </button>
      {loaded ? (
        <button type="button" onClick={askCancelAll} disabled={cancelAll.isPending || waiting === 0} aria-haspopup="dialog">
          Cancel all
        </button>
      ) : null}
    </>
  );
}

function RunNextAnswer({ next }: { next: Actions['runNext']['data'] }) {
  if (!next || !('item' in next)) return null;
  if (next.item === null) return <p role="status">Nothing is queued.</p>;
  if ('command' in next) {
    return (
      <section className="command" aria-labelledby="next-h">
        <h2 id="next-h">Dry run: the next transcode would run</h2>
        <p>
          <PathText path={next.item.path} />
        </p>
        <pre>
          <code>{next.command.join(' ')}</code>
        </pre>
      </section>
    );
  }
  if ('job' in next) {
    return (
      <p role="status">
        Started the transcode of <PathText path={next.item.path} />.
      </p>
    );
  }
  return null;
}

function RunAllAnswer({ all }: { all: Actions['runAll']['data'] }) {
  if (!all) return null;
  if ('dry_run' in all) return <RunAllPlan plan={all} />;
  return (
    <p role="status">
      {all.queued === 0
        ? 'Nothing is queued.'
        : `Queued ${all.queued.toLocaleString()} transcodes${all.paused ? '; they start when the queue is resumed' : ''}.`}
    </p>
  );
}

function EntryDetails({ entry: i, progress }: { entry: Entry; progress: unknown }) {
  if (i.status === 'running') return <JobProgress progress={progress ?? i.progress} label={`transcode of ${i.path} progress`} />;
  if (i.status === 'failed' && i.error) return <span className="error">{i.error}</span>;
  if (i.result) return <ResultSummary result={i.result} />;
  if (i.status === 'queued' && i.job_id !== null) return <span className="muted">waiting for a worker</span>;
  return null;
}

function RowActions({ entry: i, actions, dryRun }: { entry: Entry; actions: Actions; dryRun: boolean }) {
  const recycleBin = useConfig().data?.library.recycle_bin ?? false;
  const { priority, cancel, retry, discard } = actions;
  return (
    <span className="row-actions">
      {i.status === 'queued' ? (
        <button type="button" onClick={() => priority.mutate({ path: i.path, top: true })} disabled={priority.isPending || i.position === 1}>
          Move to top <span className="sr-only">{fileName(i.path)}</span>
        </button>
      ) : null}
      {(i.status === 'running' || i.status === 'queued') && i.job_id !== null ? (
        <button type="button" onClick={() => cancel.mutate(i.job_id!)} disabled={cancel.isPending}>
          Cancel <span className="sr-only">transcode of {fileName(i.path)}</span>
        </button>
      ) : null}
      {i.status === 'failed' ? (
        <button type="button" onClick={() => retry.mutate(i.path)} disabled={retry.isPending}>
          Retry <span className="sr-only">{fileName(i.path)}</span>
        </button>
      ) : null}
      {i.status === 'done' && i.original === 'kept' ? (
        <button
          type="button"
          className="danger"
          disabled={discard.isPending}
          onClick={() => {
            if (dryRun) discard.mutate(i.path);
            else actions.ask({ question: discardOriginalQuestion(i.path, recycleBin), go: () => discard.mutate(i.path) });
          }}
        >
          Discard original <span className="sr-only">{fileName(i.path)}</span>
        </button>
      ) : null}
    </span>
  );
}

function QueueRow({ entry: i, progress, actions, dryRun }: { entry: Entry; progress: unknown; actions: Actions; dryRun: boolean }) {
  const { priority } = actions;
  return (
    <tr data-status={i.status} className={i.status === 'running' ? 'running' : undefined}>
      <td className="num" data-testid="position">
        {i.position ?? '–'}
      </td>
      <td className="path">
        <PathText path={i.path} />
      </td>
      <td>{i.title ?? '–'}</td>
      <td className="num">{formatBytes(i.bytes)}</td>
      <td className="num">
        {i.status === 'queued' ? (
          <PriorityField
            key={`${i.path}\n${i.priority}`}
            entry={i}
            disabled={priority.isPending}
            onSet={(p) => priority.mutate({ path: i.path, priority: p })}
          />
        ) : (
          i.priority
        )}
      </td>
      <td>
        <Status status={i.status} />
      </td>
      <td>
        <EntryDetails entry={i} progress={progress} />
      </td>
      <td>
        <RowActions entry={i} actions={actions} dryRun={dryRun} />
      </td>
    </tr>
  );
}

/** The running transcodes' progress by job id, as the event stream reports it: newer than the last poll's. */
function useLiveProgress(): Map<string, unknown> {
  return new Map(useLiveJobs().flatMap((j) => (j.queue === 'transcode' && j.state === 'active' ? [[j.id, j.progress] as const] : [])));
}

function QueueTable({ shown, live, actions, dryRun }: { shown: readonly Entry[]; live: Map<string, unknown>; actions: Actions; dryRun: boolean }) {
  return (
    <table className="grid">
      <thead>
        <tr>
          <th scope="col" className="num">
            Position
          </th>
          <th scope="col">File</th>
          <th scope="col">Title</th>
          <th scope="col">Size</th>
          <th scope="col">Priority</th>
          <th scope="col">Status</th>
          <th scope="col">Details</th>
          <th scope="col">
            <span className="sr-only">Actions</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {shown.map((i) => (
          <QueueRow key={i.path} entry={i} progress={i.job_id !== null ? live.get(i.job_id) : undefined} actions={actions} dryRun={dryRun} />
        ))}
      </tbody>
    </table>
  );
}

export function TranscodesPage() {
  const config = useConfig();
  const queue = useQuery({ queryKey: queryKeys.transcoder(), queryFn: fetchQueue, refetchInterval: (q) => (moving(q.state.data) ? 2000 : false) });
  const ordered = useMemo(() => inLineOrder(queue.data?.queue ?? []), [queue.data]);
  const rows = useRowWindow(ordered, itemText);
  const live = useLiveProgress();
  const [asking, setAsking] = useState<Asking | null>(null);
  const actions = { ...useTranscoderActions(), ask: setAsking };
  const { pause, runNext, runAll, cancelAll, retry, priority, cancel, discard } = actions;
  const paused = queue.data?.paused ?? false;
  const dryRun = config.data?.app.dry_run ?? true;
  const waiting = ordered.filter((e) => e.status === 'queued' && e.job_id !== null).length;
  const running = ordered.filter((e) => e.status === 'running').length;
  return (
    <Page
      id="transcodes"
      title="Transcodes"
      actions={<QueueButtons actions={actions} loaded={!!queue.data} paused={paused} waiting={waiting} running={running} />}
    >
      {asking ? (
        <ConfirmDialog
          question={asking.question}
          onCancel={() => setAsking(null)}
          onConfirm={() => {
            setAsking(null);
            asking.go();
          }}
        />
      ) : null}
      {paused ? <p className="muted">The queue is paused: running transcodes finish, nothing new starts until it is resumed.</p> : null}
      <ErrorNote error={pause.error} />
      <ErrorNote error={runNext.error} />
      <ErrorNote error={runAll.error} />
      <ErrorNote error={cancelAll.error} />
      <RunNextAnswer next={runNext.data} />
      <RunAllAnswer all={runAll.data} />
      {cancelAll.data ? <p role="status">Cancelled {cancelAll.data.cancelled.toLocaleString()} waiting transcodes.</p> : null}
      {queue.isPending ? <Loading what="the transcode queue" /> : null}
      <ErrorNote error={queue.error} />
      <ErrorNote error={retry.error} />
      <ErrorNote error={priority.error} />
      <ErrorNote error={cancel.error} />
      <ErrorNote error={discard.error} />
      {discard.data ? (
        <p role="status">
          {discard.data.dry_run ? 'Dry run: would remove ' : 'Removed '}
          <span className="path">{discard.data.removed}</span>
          {discard.data.recycled_to ? (
            <>
              {' '}
              to the recycle bin: <span className="path">{discard.data.recycled_to}</span>
            </>
          ) : null}
          .
        </p>
      ) : null}
      {queue.data ? (
        <section aria-labelledby="queue-h">
          <h2 id="queue-h">Queue</h2>
          {queue.data.scanned_at ? (
            <p className="muted">
              <ScannedAt at={queue.data.scanned_at} />
            </p>
          ) : null}
          {queue.data.scanned_at === null ? (
            <NotScanned what="The videos to convert to MP4 are known once a library scan has read the drives." />
          ) : queue.data.queue.length === 0 ? (
            <Empty>Every video is already MP4.</Empty>
          ) : (
            <>
              {rows.controls}
              <QueueTable shown={rows.shown} live={live} actions={actions} dryRun={dryRun} />
              {rows.more}
            </>
          )}
        </section>
      ) : null}
    </Page>
  );
}
