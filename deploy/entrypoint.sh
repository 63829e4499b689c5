#!/bin/sh
# The image's entrypoint, as linuxserver.io images start: the user `mo` takes the ids PUID and PGID
# (default 1000:1000), the folder the service writes to becomes theirs, and the command (the API or
# a worker) runs as that user, never as root. Started as another user already (compose `user:`),
# it only writes a missing config file and runs the command.
set -eu

CONFIG_FILE="${MEDIA_ORGANIZER_CONFIG:-/config/config.toml}"
# The service's own files (state.json, the index, the API key, journals): the only folder it writes
# to, and the `paths.data` of the config file below and of deploy/config.example.toml.
STATE=/config/data

# Without a config file the defaults apply, and their data folder is /data: in the compose layout
# that is the user's own folder of downloads and media. A first start writes the one line that
# keeps the state apart; the user names the downloads and drives.
first_run_config() {
  [ -e "$CONFIG_FILE" ] && return 0
  # A dangling link is the user's doing: never written through, and never read as no config at all.
  if [ -L "$CONFIG_FILE" ]; then
    echo "docker-entrypoint: $CONFIG_FILE is a link to nothing; without a config the state would go to /data, among your media" >&2
    exit 64
  fi
  if ! cat 2>/dev/null >"$CONFIG_FILE" <<EOF
# Written by the image at its first start. The service keeps its own files (state.json, the index,
# the API key) in $STATE, apart from the folder mounted at /data. Name your downloads folder and
# drives here: deploy/config.example.toml shows the layout, docs/configuration.md every key.
[paths]
data = "$STATE"
EOF
  then
    echo "docker-entrypoint: $CONFIG_FILE is missing and could not be written; without it the state would go to /data, among your media. Copy deploy/config.example.toml there" >&2
    exit 64
  fi
  echo "docker-entrypoint: wrote $CONFIG_FILE (state in $STATE); name your downloads folder and drives there" >&2
  wrote_config=1
}
wrote_config=0

if [ "$(id -u)" != 0 ]; then
  first_run_config
  exec "$@"
fi

PUID="${PUID:-1000}"
PGID="${PGID:-1000}"
for var in PUID PGID; do
  eval "value=\$$var"
  case "$value" in
    '' | *[!0-9]*) echo "docker-entrypoint: $var must be a numeric id, got \"$value\"" >&2; exit 64 ;;
  esac
  # Root would own every folder the scanner makes and every file it copies, and a flaw in ffmpeg
  # or a parser would hold the whole container and every mounted folder.
  if [ "$value" -eq 0 ]; then
    echo "docker-entrypoint: $var=0 would run the service as root; set it to the id that owns your media folders" >&2
    exit 64
  fi
done

# -o: the ids may be taken already (the base image's `node` user is 1000:1000).
groupmod -o -g "$PGID" mo
usermod -o -u "$PUID" -g "$PGID" mo

first_run_config
if [ "$wrote_config" = 1 ]; then
  chown -h "$PUID:$PGID" "$CONFIG_FILE"
fi

# Only the state folder becomes the user's, and inside it only what someone else owns (a start
# after a PUID change, or files the old layout left as root): /config itself, config.toml and any
# folder mapped in (the downloads, the media under /data) keep their owners. -xdev: a filesystem
# mounted inside the state folder is not the service's either.
if ! { mkdir -p "$STATE" && find "$STATE" -xdev \( ! -user "$PUID" -o ! -group "$PGID" \) -exec chown -h "$PUID:$PGID" {} +; } 2>/dev/null; then
  echo "docker-entrypoint: $STATE could not be handed to $PUID:$PGID (/config read-only?); the service must be able to write its paths.data" >&2
fi

# setpriv (util-linux) changes the ids in this process and execs the command, so the signals
# tini forwards reach the app itself. No supplementary groups, no capabilities, and no way back
# up through a setuid program.
exec setpriv --reuid="$PUID" --regid="$PGID" --clear-groups --inh-caps=-all --no-new-privs -- "$@"
