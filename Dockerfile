# RxLive in a container: `build` compiles rxlive with the Swift runtime linked
# statically; `runtime` is a slim Debian plus the two C libraries it loads that the base lacks
# (zlib, for permessage-deflate, is already there: dpkg needs it).

FROM swift:6.3.1-bookworm AS build
ARG DEBIAN_FRONTEND=noninteractive
# Versions are pinned to bookworm's series so security updates still apply.
RUN apt-get update \
    && apt-get install -y --no-install-recommends \
        libuv1-dev=1.44.* libssl-dev=3.0.* pkg-config=1.8.* zlib1g-dev=1:1.2.* \
        libsqlite3-dev=3.40.* libpq-dev=15.* libargon2-dev=0~20171227* \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY Package.swift ./
COPY Sources ./Sources
# The manifest names every test target, so their folders must exist too.
COPY Tests ./Tests
COPY Public ./Public
COPY scripts/stage scripts/healthcheck ./scripts/
RUN scripts/stage /staging

FROM debian:bookworm-slim AS runtime
ARG DEBIAN_FRONTEND=noninteractive
RUN apt-get update \
    && apt-get install -y --no-install-recommends \
        libuv1=1.44.* libssl3=3.0.* ca-certificates=20* \
        libsqlite3-0=3.40.* libpq5=15.* libargon2-1=0~20171227* \
    && apt-get clean \
    && rm -rf /var/lib/apt/lists/* \
    && groupadd --system --gid 10001 rxlive \
    && useradd --system --uid 10001 --gid rxlive --no-create-home \
        --home-dir /nonexistent --shell /usr/sbin/nologin rxlive \
    && install -d -o rxlive -g rxlive -m 0700 /var/lib/rxlive
# Owned by root and read-only to the server's user (rxlive, uid 10001).
COPY --from=build /staging /opt/rxlive
USER 10001:10001
WORKDIR /opt/rxlive
ENV RXLIVE_HOST=0.0.0.0
# The accounts live in a folder the server's user owns (the image's own files are read-only to it).
ENV RXLIVE_DATABASE=sqlite:/var/lib/rxlive/accounts.sqlite
EXPOSE 8080
HEALTHCHECK --interval=10s --timeout=5s --start-period=5s --retries=3 \
    CMD ["/opt/rxlive/healthcheck"]
STOPSIGNAL SIGTERM
ENTRYPOINT ["/opt/rxlive/rxlive"]
