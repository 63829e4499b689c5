# syntax=docker/dockerfile:1
# One image for both processes: the API (the default CMD) or a worker (see docker-compose.yml).
# Built in stages: the bundles are made with every dependency, and the image that runs keeps only
# Node.js, ffmpeg, the two bundles and the production dependencies they load at run time.

# Node 24 LTS. The code is built for Node 20 and newer (esbuild's target), so it runs on either.
FROM node:24-bookworm-slim AS pnpm-base
RUN npm install -g pnpm@10.34.9 && npm cache clean --force
WORKDIR /app
# Manifests first so the dependency layers survive source-only changes. Every workspace package's
# package.json must be listed here, or --frozen-lockfile fails on the missing importer.
COPY package.json pnpm-lock.yaml pnpm-workspace.yaml .npmrc ./
COPY apps/api/package.json apps/api/
COPY apps/worker/package.json apps/worker/
COPY packages/core/package.json packages/core/
COPY packages/shared/package.json packages/shared/
COPY packages/api-client/package.json packages/api-client/
COPY packages/test-support/package.json packages/test-support/
COPY apps/web/package.json apps/web/

# The bundles: esbuild and TypeScript are dev dependencies, so they stay in this stage.
FROM pnpm-base AS build
RUN --mount=type=cache,id=pnpm-store,target=/pnpm/store \
    pnpm install --frozen-lockfile --store-dir /pnpm/store
COPY . .
# The commit mo_build_info names: the build context has no .git (.dockerignore), so it comes as
# --build-arg MO_REVISION=$(git rev-parse --short=12 HEAD), or the metric leaves it out.
ARG MO_REVISION=
RUN pnpm build

# What the bundles leave out (Bull Board serves its page and assets from its own package files).
# valibot, under Bull Board, names TypeScript as an optional peer for its types, and pnpm links it
# to the workspace's own: nothing loads it at run time, and a compiler has no place in the image.
FROM pnpm-base AS prod-deps
RUN --mount=type=cache,id=pnpm-store,target=/pnpm/store \
    pnpm install --frozen-lockfile --prod --store-dir /pnpm/store \
 && rm -rf node_modules/.pnpm/typescript@*

FROM node:24-bookworm-slim AS runtime
# ffmpeg/ffprobe for probes, remuxes and transcodes. Debian's build can use NVENC when the NVIDIA
# runtime mounts the driver (the compose file's gpu-worker).
RUN apt-get update \
 && apt-get install -y --no-install-recommends ffmpeg \
 && rm -rf /var/lib/apt/lists/*
# The user the apps run as; deploy/entrypoint.sh gives it the ids PUID and PGID at each start.
RUN groupadd --system mo \
 && useradd --system --gid mo --home-dir /nonexistent --no-create-home --shell /usr/sbin/nologin mo
WORKDIR /app
ENV NODE_ENV=production \
    MEDIA_ORGANIZER_CONFIG=/config/config.toml
COPY --from=prod-deps /app/node_modules ./node_modules
COPY --from=prod-deps /app/apps/api/node_modules ./apps/api/node_modules
COPY --from=build /app/apps/api/dist ./apps/api/dist
COPY --from=build /app/apps/worker/dist ./apps/worker/dist
# The web UI: static files the API serves at /.
COPY --from=build /app/apps/web/dist ./apps/web/dist
COPY --chmod=0755 deploy/entrypoint.sh /usr/local/bin/media-organizer-entrypoint
EXPOSE 8080

# Slim images have no curl; Node's fetch does the same. A worker container overrides this (it
# serves no HTTP).
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||8080)+'/api/ready').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]

# Root only until the entrypoint has applied PUID/PGID; the app itself never runs as root. The
# commands are those of package.json's start:api and start:worker, without their build step.
ENTRYPOINT ["/usr/local/bin/media-organizer-entrypoint"]
CMD ["node", "--enable-source-maps", "--max-semi-space-size=2", "--heap-growing-percent=20", "--expose-gc", "apps/api/dist/main.mjs"]
