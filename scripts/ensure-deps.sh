#!/usr/bin/env bash
# What RetryStorm needs beyond Swift: GSL (libgsl-dev) and pkg-config, plus any Debian packages
# named as arguments.
#   scripts/ensure-deps.sh [PKG…]          installs what is missing (apt-get, through sudo when not
#                                         root): `make deps`, `make demo` and .ci/run.
#   scripts/ensure-deps.sh --check [PKG…]  installs nothing: names what is missing and how to get it,
#                                         and fails (`make test`, `make build`).
# Idempotent: does nothing when everything is present.
set -euo pipefail

check=false
if [ "${1:-}" = "--check" ]; then check=true; shift; fi

if ! command -v swift >/dev/null 2>&1; then
  echo "ensure-deps: swift is not on PATH; install Swift 6.1 or newer (https://swift.org/install)" >&2
  exit 1
fi

need=()
command -v pkg-config >/dev/null 2>&1 || need+=(pkg-config)
if ! pkg-config --exists gsl 2>/dev/null; then need+=(libgsl-dev); fi
for pkg in "$@"; do dpkg -s "$pkg" >/dev/null 2>&1 || need+=("$pkg"); done

if [ ${#need[@]} -eq 0 ]; then exit 0; fi

if $check; then
  echo "ensure-deps: missing ${need[*]} (GSL is found through pkg-config)." >&2
  echo "  Install with 'make deps' (or: sudo apt-get install ${need[*]}), then run this again." >&2
  exit 1
fi

sudo=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then sudo="sudo"; else
    echo "ensure-deps: need ${need[*]} but am not root and sudo is missing" >&2; exit 1
  fi
fi
echo "ensure-deps: installing ${need[*]}" >&2
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
