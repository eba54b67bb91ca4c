#!/usr/bin/env bash
# Gradescope's setup.sh for a rooflab assignment (written by `lab export-gradescope`).
# Gradescope runs it once, as root, on its Ubuntu 22.04 image, with the
# autograder zip unpacked in /autograder/source: it installs the Debian
# packages and builds the reference kit that grading uses.
# AUTOGRADER_ROOT (default /autograder) lets a test run it elsewhere.
set -euo pipefail
source_dir="${AUTOGRADER_ROOT:-/autograder}/source"
cd "$source_dir"

# Ubuntu 22.04 ships CMake 3.22; the course needs 3.24 (CMakePresets v5).
# Take a newer one from PyPI then, the one thing not from apt.
if ! cmake --version 2>/dev/null | awk 'NR == 1 {split($3, v, "."); exit !(v[1] > 3 || (v[1] == 3 && v[2] >= 24))}'; then
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends python3-pip
  python3 -m pip install --quiet 'cmake>=3.24'
  hash -r
fi

./lab build   # installs the rest with apt, then builds build/solution
