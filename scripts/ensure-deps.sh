#!/usr/bin/env bash
# Installs what a new machine lacks to build and test RetryStorm: GSL (libgsl-dev) and pkg-config.
# Idempotent: installs nothing when everything is present. Uses sudo when not root and sudo exists.
set -euo pipefail

if ! command -v swift >/dev/null 2>&1; then
  echo "ensure-deps: swift is not on PATH; install Swift 6.1 or newer (https://swift.org/install)" >&2
  exit 1
fi

need=()
command -v pkg-config >/dev/null 2>&1 || need+=(pkg-config)
if ! pkg-config --exists gsl 2>/dev/null; then need+=(libgsl-dev); fi
for pkg in "$@"; do dpkg -s "$pkg" >/dev/null 2>&1 || need+=("$pkg"); done

if [ ${#need[@]} -eq 0 ]; then exit 0; fi

sudo=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then sudo="sudo"; else
    echo "ensure-deps: need ${need[*]} but am not root and sudo is missing" >&2; exit 1
  fi
fi
echo "ensure-deps: installing ${need[*]}" >&2
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
