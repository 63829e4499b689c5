# syntax=docker/dockerfile:1
# One image for both processes: `pnpm start:api` (the default CMD) or `pnpm start:worker`.
FROM node:20-bookworm-slim

# ffmpeg/ffprobe for the worker's media and transcode jobs. Debian's build can use NVENC when the
# NVIDIA runtime mounts the driver (the compose file's gpu-worker).
RUN apt-get update \
 && apt-get install -y --no-install-recommends ffmpeg \
 && rm -rf /var/lib/apt/lists/*

RUN npm install -g pnpm@10.34.9 && npm cache clean --force
# pnpm runs a script through `sh -c`; Debian's dash stays as a middle process and dies on SIGTERM
# without passing it on, so `docker stop` would kill the app before it finishes its jobs. bash
# execs a single command, so the signal reaches tsx, which relays it to the app.
ENV npm_config_script_shell=/bin/bash \
    npm_config_update_notifier=false

WORKDIR /app

# Manifests first so the dependency layer survives source-only changes. Every workspace package's
# package.json must be listed here, or --frozen-lockfile fails on the missing importer.
COPY package.json pnpm-lock.yaml pnpm-workspace.yaml .npmrc ./
COPY apps/api/package.json apps/api/
COPY apps/worker/package.json apps/worker/
COPY packages/core/package.json packages/core/
COPY packages/shared/package.json packages/shared/
# Dev dependencies stay: the apps run from TypeScript source with tsx, which is one of them.
RUN --mount=type=cache,id=pnpm-store,target=/pnpm/store \
    pnpm install --frozen-lockfile --store-dir /pnpm/store

COPY . .
# Bundled at build time too, so the first start does not write into the image.
RUN pnpm build

# No USER: the worker runs as root so that it can honour the linuxserver-style PUID, PGID and UMASK
# variables itself: what it creates (folders, cross-filesystem copies) is handed to PUID:PGID and
# created under UMASK. Everything under /app is world-readable, so `user: "1000:1000"` in compose
# works as well when every mounted folder already belongs to that user.
ENV MEDIA_ORGANIZER_CONFIG=/config/config.toml
EXPOSE 8080

# Slim images have no curl; Node 20's fetch does the same. A worker container overrides this (it
# serves no HTTP).
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||8080)+'/api/ready').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]

CMD ["pnpm", "start:api"]
