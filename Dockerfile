# spytail as a container sidecar: a static-stdlib release build in the Swift image, run as a non-root
# user in a slim Debian image. It follows /var/log/app/*.log (the application's log volume, mounted
# read-only) and writes JSON lines to stdout; metrics and probes on :9880; the config and the checkpoint folder are volumes, so a
# restarted container resumes where it stopped. SIGTERM (docker stop) flushes and checkpoints within 2 s.
# CI builds with the same command (.ci/run) because these machines have no Docker engine.
ARG SWIFT_IMAGE=swift:6.3-bookworm
FROM ${SWIFT_IMAGE} AS build
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends libpcre2-dev libisal-dev libinotifytools0-dev \
 && rm -rf /var/lib/apt/lists/*
ARG SPYTAIL_COMMIT=unknown
WORKDIR /src
COPY Package.swift ./
COPY Sources ./Sources
RUN swift build -c release --static-swift-stdlib --product spytail \
      -Xcc "-DSPYTAIL_COMMIT=\"${SPYTAIL_COMMIT}\"" -Xcc "-DSPYTAIL_BUILD_DATE=\"$(date -u +%Y-%m-%dT%H:%M:%SZ)\"" \
 && install -D -m 0755 .build/release/spytail /out/spytail

FROM debian:bookworm-slim
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends libpcre2-8-0 libisal2 libinotifytools0 libstdc++6 \
 && rm -rf /var/lib/apt/lists/* \
 && groupadd --system --gid 10001 spytail \
 && useradd --system --uid 10001 --gid spytail --home-dir /var/lib/spytail --shell /usr/sbin/nologin spytail \
 && install -d -o spytail -g spytail -m 0750 /var/lib/spytail \
 && install -d -m 0755 /etc/spytail
COPY --from=build /out/spytail /usr/local/bin/spytail
COPY config/container.json config/spytail.schema.json /etc/spytail/
USER spytail:spytail
VOLUME ["/etc/spytail", "/var/lib/spytail"]
# The HTTP face (container.json): /metrics, /healthz, /readyz open; /api with the token mounted at
# /run/secrets/spytail-token (docker run --secret, or a Kubernetes Secret volume).
EXPOSE 9880
ENTRYPOINT ["/usr/local/bin/spytail"]
STOPSIGNAL SIGTERM
CMD ["run", "--config", "/etc/spytail/container.json"]
