// The one list of file types this service knows as video and as subtitles. The runtime check of
// `library.*_extensions`, the release-name parser, the containers ffmpeg may open and the test
// fixtures all derive from it, so a type cannot be a video to one of them and unknown to another.
//
// `.iso` and `.strm` are not on it: the service reads a video only through a demuxer named for
// its extension, and neither has one. An `.iso` is a disc image, not a container ffmpeg's file
// demuxers read; a `.strm` is a text file naming a URL, which the service must never open. Moving
// either into the library would file something no probe, remux or transcode can read.

/** Containers players and ffmpeg open as video. */
export const VIDEO_EXTENSIONS = [
  '.3g2',
  '.3gp',
  '.asf',
  '.avi',
  '.divx',
  '.f4v',
  '.flv',
  '.m1v',
  '.m2t',
  '.m2ts',
  '.m2v',
  '.m4v',
  '.mk3d',
  '.mkv',
  '.mov',
  '.mp4',
  '.mpe',
  '.mpeg',
  '.mpg',
  '.mts',
  '.mxf',
  '.ogm',
  '.ogv',
  '.qt',
  '.rm',
  '.rmvb',
  '.tp',
  '.trp',
  '.ts',
  '.vob',
  '.webm',
  '.wmv',
  '.wtv',
  '.xvid',
] as const;
export type VideoExtension = (typeof VIDEO_EXTENSIONS)[number];

/** Text and image subtitle formats (`.idx` is VobSub's index beside its `.sub`). */
export const SUBTITLE_EXTENSIONS = ['.ass', '.dfxp', '.idx', '.sami', '.smi', '.srt', '.ssa', '.sub', '.sup', '.ttml', '.usf', '.vtt'] as const;
export type SubtitleExtension = (typeof SUBTITLE_EXTENSIONS)[number];

export const KNOWN_VIDEO_EXTENSIONS: ReadonlySet<string> = new Set(VIDEO_EXTENSIONS);
export const KNOWN_SUBTITLE_EXTENSIONS: ReadonlySet<string> = new Set(SUBTITLE_EXTENSIONS);
