# syntax=docker/dockerfile:1
# formd container image, in the style of the Swift server templates:
# build with the official Swift image, run on Debian slim with only the libraries the binary needs.
#
#   docker build -t formd .
#   docker run --rm -p 8080:8080 formd
#
# scripts/container-smoke replays the runtime stage below in a debootstrap root file system
# (no Docker engine needed): it installs RUNTIME_PACKAGES and runs every instruction after the
# last FROM, so keep that stage to RUN, ARG, ENV, WORKDIR, COPY, USER, EXPOSE, STOPSIGNAL,
# HEALTHCHECK, ENTRYPOINT and CMD.

# ---- build ---------------------------------------------------------------------------------
FROM swift:6.3-bookworm AS build
RUN export DEBIAN_FRONTEND=noninteractive \
 && apt-get -q update \
 && apt-get -q install -y --no-install-recommends zlib1g-dev \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /build
# Resolve dependencies in their own layer, so that source edits reuse it.
COPY Package.swift ./
RUN swift package resolve
COPY Sources ./Sources
# The definition schema is embedded from schemas/ (Sources/FormdService/Documents/Resources links to it).
COPY schemas ./schemas
# Package.swift declares the test targets and the example; their folders must exist for the
# manifest to load.
COPY Tests ./Tests
COPY Examples ./Examples
RUN swift build -c release --static-swift-stdlib --product formd
WORKDIR /staging
RUN cp "$(swift build --package-path /build -c release --show-bin-path)/formd" ./ \
 && cp /usr/libexec/swift/linux/swift-backtrace-static ./

# ---- run -----------------------------------------------------------------------------------
FROM debian:bookworm-slim
# What `ldd formd` lists for a --static-swift-stdlib release build: libc (libc, libm), the C++
# runtime and libgcc_s, zlib. Nothing else.
ARG RUNTIME_PACKAGES="libc6 libgcc-s1 libstdc++6 libssl3 zlib1g"
RUN export DEBIAN_FRONTEND=noninteractive \
 && apt-get -q update \
 && apt-get -q install -y --no-install-recommends $RUNTIME_PACKAGES \
 && rm -rf /var/lib/apt/lists/* \
 && groupadd --gid 10001 formd \
 && useradd --uid 10001 --gid formd --home-dir /app --no-create-home --shell /usr/sbin/nologin formd
WORKDIR /app
COPY --from=build /staging/formd /staging/swift-backtrace-static /usr/local/bin/
COPY Forms ./Forms
COPY config ./config
# server.drain_delay_seconds: on SIGTERM, not ready at once but serving on for 5 s, so that load
# balancers take the container out before it stops listening (issue 32).
ENV FORMD_SERVER_HOST=0.0.0.0 \
    FORMD_SERVER_DRAIN_DELAY_SECONDS=5 \
    SWIFT_BACKTRACE=enable=yes,sanitize=yes,threads=all,images=all,interactive=no,swift-backtrace=/usr/local/bin/swift-backtrace-static
# Numeric, so that Kubernetes can verify runAsNonRoot.
USER 10001:10001
EXPOSE 8080
STOPSIGNAL SIGTERM
HEALTHCHECK --interval=10s --timeout=3s --start-period=5s --retries=3 CMD ["/usr/local/bin/formd", "healthcheck"]
ENTRYPOINT ["/usr/local/bin/formd"]
CMD ["serve"]
