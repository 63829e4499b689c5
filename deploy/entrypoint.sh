#!/bin/sh
# The image's entrypoint, as linuxserver.io images start: the user `mo` takes the ids PUID and PGID
# (default 1000:1000), the folders the service writes to become theirs, and the command (the API or
# a worker) runs as that user, never as root. Started as another user already (compose `user:`),
# it only runs the command.
set -eu

if [ "$(id -u)" != 0 ]; then
  exec "$@"
fi

PUID="${PUID:-1000}"
PGID="${PGID:-1000}"
for var in PUID PGID; do
  eval "value=\$$var"
  case "$value" in
    '' | *[!0-9]*) echo "docker-entrypoint: $var must be a numeric id, got \"$value\"" >&2; exit 64 ;;
  esac
  if [ "$value" -eq 0 ]; then
    echo "docker-entrypoint: $var=0 would run the service as root; set it to the id that owns your media folders" >&2
    exit 64
  fi
done

# -o: the ids may be taken already (the base image's `node` user is 1000:1000).
groupmod -o -g "$PGID" mo
usermod -o -u "$PUID" -g "$PGID" mo

# The folders the service keeps its own files in: /data (state, index, generated key) must become
# the user's; /config is only read, so one mounted read-only stays as it is. Only entries owned by
# someone else are changed; the downloads and the media drives are never touched.
own() {
  find "$1" \( ! -user "$PUID" -o ! -group "$PGID" \) -exec chown -h "$PUID:$PGID" {} +
}
if [ -d /config ] && ! own /config 2>/dev/null; then
  echo "docker-entrypoint: /config could not be handed to $PUID:$PGID (read-only?); it must be readable by them" >&2
fi
if [ -d /data ]; then
  own /data
fi

# setpriv (util-linux) changes the ids in this process and execs the command, so the signals
# tini forwards reach the app itself. No supplementary groups, no capabilities, and no way back
# up through a setuid program.
exec setpriv --reuid="$PUID" --regid="$PGID" --clear-groups --inh-caps=-all --no-new-privs -- "$@"
