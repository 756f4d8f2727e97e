# symbolicate in a container, for a Mac (Docker Desktop runs this Linux build unchanged) or any
# machine without Swift. It installs the release tarball `make release` writes (dist/, see
# scripts/release.sh), so build that first on Linux of the same architecture:
#   make release && docker build -t symbolicate .
#   docker run --rm -v "$PWD:/data" -w /data symbolicate symbolicate crash.ips App.dSYM
# The base is Debian 12 (glibc 2.36, the release's floor, README "Install"); the binary needs
# nothing else. scripts/check-release-files.py checks these steps against scripts/release.sh.
FROM debian:bookworm-slim

COPY dist/symbolicate-*-linux-*.tar.gz /tmp/release/

# The tarball of this image's architecture, unpacked into /usr/local (its prefix layout), then
# proven to run.
RUN set -eu; \
    case "$(uname -m)" in \
      x86_64) arch=x86_64 ;; \
      aarch64|arm64) arch=aarch64 ;; \
      *) echo "no symbolicate release for $(uname -m)" >&2; exit 1 ;; \
    esac; \
    set -- /tmp/release/symbolicate-*-linux-"$arch".tar.gz; \
    [ -f "$1" ] || { echo "dist/ has no symbolicate-*-linux-$arch.tar.gz: run make release on $arch" >&2; exit 1; }; \
    tar -xzf "$1" --strip-components=1 -C /usr/local; \
    rm -rf /tmp/release; \
    /usr/local/bin/symbolicate --version

WORKDIR /data
# No ENTRYPOINT: `docker run … IMAGE symbolicate ARGS` reads as the command line it runs.
CMD ["symbolicate", "--help"]
