#!/usr/bin/env bash
# Gradescope's setup.sh for a rooflab assignment (written by `lab export-gradescope`).
# Gradescope runs it once, as root, on its Ubuntu 22.04 image, with the
# autograder zip unpacked in /autograder/source: it installs the Debian
# packages and builds what grading @ASSIGNMENT@ uses from the reference build.
# AUTOGRADER_ROOT (default /autograder) lets a test run it elsewhere.
set -euo pipefail
source_dir="${AUTOGRADER_ROOT:-/autograder}/source"
assignment="@ASSIGNMENT@"
cd "$source_dir"
say() { printf '==> setup.sh: %s\n' "$*"; }

# The Debian packages lab installs (its PACKAGES list, read from lab so that
# there is one list): those this image's apt has (apt.sh).
eval "$(awk '/^PACKAGES=\(/ {p = 1} p {print} p && /\)/ {exit}' lab)"
[ "${#PACKAGES[@]}" -gt 0 ] || { echo "setup.sh: no PACKAGES list in lab" >&2; exit 2; }
# shellcheck source=apt.sh
source "$source_dir/autograder/gradescope/apt.sh"
install_available "${PACKAGES[@]}"

# The reference build (CMakePresets.json's preset solution, as ./lab build),
# only the targets grading reads: the grader, the grading kit, the
# assignment's verdict (its public and hidden tests) and its profile.
# shellcheck source=limits.sh
source "$source_dir/autograder/gradescope/limits.sh"
jobs=$(cpu_jobs)
jobs=$((jobs < 4 ? jobs : 4))  # a C++ compile can take a GiB or more
say "configuring build/solution"
mkdir -p build
cmake --preset solution >build/solution.configure.log 2>&1 || { cat build/solution.configure.log >&2; exit 1; }
targets=(rooflab rooflab_grading_kit "${assignment}_verdict")
help=$(cmake --build --preset solution --target help 2>/dev/null || true)  # no early-closed pipe: pipefail
if grep -qw -- "${assignment}_profile" <<<"$help"; then
  targets+=("${assignment}_profile")
fi
say "building ${targets[*]} with $jobs jobs"
cmake --build --preset solution -j "$jobs" --target "${targets[@]}"

# Student code runs as nobody (the grader drops to it as root: without
# bubblewrap, which Gradescope's containers may lack, nothing else keeps it
# from the disk). Nobody may not read the solutions or the reference build
# (solutions compiled, the hidden tests' verdicts); the grader, root, still
# can. The grading kit stays readable: grading copies it, with its
# permissions, into every staged course that nobody builds.
chmod -R go= solutions build
chmod go+x build build/solution
chmod -R go+rX build/solution/grading_kit
say "built; solutions/ and build/ closed to other users but build/solution/grading_kit"
