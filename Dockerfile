# syntax=docker/dockerfile:1
# Two stages: build with the Swift toolchain and the -dev packages, run on slim Debian
# with only the runtime libraries. The build steps are the ones scripts/test.sh runs.

FROM swift:6.3-bookworm AS build
# Versions follow Debian 12's security updates; pinning would break the build on each.
# hadolint ignore=DL3008
RUN apt-get update \
    && apt-get install -y --no-install-recommends pkg-config libh2o-evloop-dev zlib1g-dev libssl-dev libsqlite3-dev libhiredis-dev libnghttp2-dev \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /build
# Resolve first, so the layer is reused while only sources change.
COPY Package.swift ./
RUN swift package resolve
COPY Sources ./Sources
# SwiftPM loads every target of the manifest, even to build one product: the test
# targets' folders and the tutorial app's (a target too, so the tests compile the docs'
# code) must be there.
COPY Tests ./Tests
COPY Examples/FirstTabApp ./Examples/FirstTabApp
RUN swift build -c release --static-swift-stdlib --product tabserver \
    && cp "$(swift build -c release --static-swift-stdlib --show-bin-path)/tabserver" /build/tabserver

FROM debian:bookworm-slim
# hadolint ignore=DL3008
RUN apt-get update \
    && apt-get install -y --no-install-recommends libh2o-evloop0.13 zlib1g libssl3 libsqlite3-0 libhiredis0.14 libnghttp2-14 curl ca-certificates \
    && rm -rf /var/lib/apt/lists/* \
    && useradd --system --uid 10001 --no-create-home --shell /usr/sbin/nologin tabserver \
    && mkdir /data && chown 10001:10001 /data
WORKDIR /app
COPY --from=build --chown=root:root --chmod=0555 /build/tabserver /usr/local/bin/tabserver
COPY --chown=root:root --chmod=a=rX Public ./Public
COPY --chown=root:root --chmod=a=rX Templates ./Templates
COPY --chown=root:root --chmod=a=rX Locales ./Locales
COPY --chown=root:root --chmod=0444 tabs.json ./tabs.json
USER 10001:10001
ENV TABSERVER_HOST=0.0.0.0 \
    TABSERVER_PORT=8080 \
    TABSERVER_SESSIONS=sqlite:/data/sessions.sqlite
VOLUME ["/data"]
EXPOSE 8080
# Docker's stop sends SIGTERM and waits 10 s: the server drains within its 8 s grace.
STOPSIGNAL SIGTERM
HEALTHCHECK --interval=30s --timeout=3s --start-period=5s --retries=3 \
    CMD ["curl", "-fsS", "http://127.0.0.1:8080/healthz"]
ENTRYPOINT ["/usr/local/bin/tabserver"]
