# Build: the official Swift image; run: Debian slim with only the runtime libraries.
FROM swift:6.1-bookworm AS build
WORKDIR /src
RUN apt-get update && apt-get install -y --no-install-recommends libssl-dev zlib1g-dev && rm -rf /var/lib/apt/lists/*
COPY Package.swift ./
COPY Sources ./Sources
COPY Tests ./Tests
RUN swift build -c release --static-swift-stdlib --product formd \
 && cp "$(swift build -c release --show-bin-path)/formd" /formd

FROM debian:bookworm-slim
RUN apt-get update && apt-get install -y --no-install-recommends libssl3 zlib1g ca-certificates \
 && rm -rf /var/lib/apt/lists/* \
 && useradd --system --uid 10001 --home /app formd
WORKDIR /app
COPY --from=build /formd /usr/local/bin/formd
COPY Forms ./Forms
COPY config ./config
ENV FORMD_SERVER_HOST=0.0.0.0
USER formd
EXPOSE 8080
STOPSIGNAL SIGTERM
ENTRYPOINT ["/usr/local/bin/formd"]
CMD ["serve"]
