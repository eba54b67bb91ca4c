#!/usr/bin/env bash
# Prepares tools/gpu/run_all.sh for a GPU machine that cannot install
# packages (a lent machine with no network): downloads, here, the Debian
# packages the course's build needs and such a machine's image may lack, into
# build/gpu-deps/ (ignored by git). run_all.sh unpacks them into its build
# folder with `dpkg -x`, never into the system.
#
# usage: tools/gpu/prepare.sh [DIR]      (default: build/gpu-deps)
#
# Then send the tree with DIR beside it and run tools/gpu/run_all.sh there
# (docs/benchmarks.md, "Running everything on a GPU").
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
dir=${1:-$root/build/gpu-deps}
# What cmake/dependencies.cmake finds: GoogleTest and GoogleMock, Boost's
# context library (the CPU runtime's fibers, built on every machine),
# nlohmann-json, CLI11 and toml++. The CUDA toolkit, Thrust (CCCL), CMake,
# a C++ compiler and PyTorch come with a GPU machine's image.
packages=(libgtest-dev libgmock-dev libboost1.74-dev libboost-context1.74-dev libboost-context1.74.0
          nlohmann-json3-dev libcli11-dev libtomlplusplus-dev)
command -v apt-get >/dev/null || { echo "prepare.sh: apt-get not found: run this on Debian or Ubuntu" >&2; exit 1; }
mkdir -p "$dir"
echo "prepare.sh: downloading ${#packages[@]} packages into $dir"
# apt's sandbox user cannot write every folder: download into a fresh one of its own, then move.
staging=$(mktemp -d)
trap 'rm -rf "$staging"' EXIT
chmod 777 "$staging"
(cd "$staging" && apt-get download "${packages[@]}") >/dev/null ||
  { echo "prepare.sh: apt-get download failed (is the package list current? apt-get update)" >&2; exit 1; }
rm -f "$dir"/*.deb
mv "$staging"/*.deb "$dir"/
du -sh "$dir" | sed 's/^/prepare.sh: /'
