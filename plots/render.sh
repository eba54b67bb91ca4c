#!/usr/bin/env bash
# render.sh DATA_DIR OUT_DIR: render every figure template, each assignment's
# solutions/<assignment>/literate/*.gp, to OUT_DIR/<name>.png and .svg with
# gnuplot; they share plots/templates/common.gp. Exit 77 (a skip for ctest)
# when gnuplot is not installed.
set -euo pipefail
data=${1:?usage: render.sh DATA_DIR OUT_DIR}
out=${2:?usage: render.sh DATA_DIR OUT_DIR}
templates=$(cd "$(dirname "${BASH_SOURCE[0]}")/templates" && pwd)
solutions=$(cd "$(dirname "${BASH_SOURCE[0]}")/../solutions" && pwd)
command -v gnuplot >/dev/null || { echo "SKIPPED: gnuplot is not installed (Debian: gnuplot-nox)"; exit 77; }
mkdir -p "$out"
for template in "$solutions"/*/literate/*.gp; do
  name=$(basename "$template" .gp)
  # Templates include common.gp and draw once per terminal: PNG for the
  # Markdown reports, SVG for the docs.
  for format in png svg; do
    gnuplot -e "data='$data'; out='$out/$name.$format'; format='$format'; templates='$templates'" "$template" \
      2> "$out/$name.$format.log" || { cat "$out/$name.$format.log" >&2; echo "render.sh: $template failed" >&2; exit 1; }
    # gnuplot reports bad data as warnings and still exits 0: refuse those too.
    if grep -qiE "warning|error" "$out/$name.$format.log"; then
      cat "$out/$name.$format.log" >&2; echo "render.sh: $template: gnuplot complained" >&2; exit 1
    fi
    [ -s "$out/$name.$format" ] || { echo "render.sh: $out/$name.$format is empty" >&2; exit 1; }
    rm -f "$out/$name.$format.log"
  done
  echo "rendered $name (png, svg)"
done
