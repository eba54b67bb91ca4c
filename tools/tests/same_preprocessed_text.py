#!/usr/bin/env python3
"""Whether one source file compiles from the same text in two builds.

usage: same_preprocessed_text.py FILE ROOT_A BUILD_A ROOT_B BUILD_B [FILE_B]

FILE is relative to each tree's root (tools/cli/generate.cpp), or to ROOT_A
only where FILE_B names the same file in the other tree (a lab's file:
solutions/<lab>/... and assignments/<lab>/...); BUILD_A and BUILD_B are the
builds' folders, holding compile_commands.json. Each build's
command for FILE runs with -E, and each tree's build folder and then its root
are replaced by a placeholder in the output, as the compiler cache makes them
relative (CCACHE_BASEDIR). Exits 0 when the two texts are equal; otherwise 1,
naming the first line that differs or the build without a command for FILE.
"""
import json
import os
import shlex
import subprocess
import sys


def preprocessed(source, root, build):
    with open(os.path.join(build, "compile_commands.json"), encoding="utf-8") as listing:
        entries = json.load(listing)
    wanted = os.path.realpath(os.path.join(root, source))
    for entry in entries:
        if os.path.realpath(entry["file"]) != wanted:
            continue
        words = shlex.split(entry["command"])
        argv = []
        skip = False
        for word in words:  # the object file and "-c" give way to -E
            if skip:
                skip = False
            elif word == "-o":
                skip = True
            elif word != "-c":
                argv.append(word)
        text = subprocess.run(argv + ["-E"], cwd=entry["directory"], check=True, capture_output=True,
                              text=True).stdout
        return text.replace(os.path.realpath(build), "BUILD").replace(os.path.realpath(root), "ROOT")
    sys.exit(f"same_preprocessed_text: {build}/compile_commands.json has no command for {source}")


def main():
    if len(sys.argv) not in (6, 7):
        sys.exit(__doc__)
    source, root_a, build_a, root_b, build_b = sys.argv[1:6]
    source_b = sys.argv[6] if len(sys.argv) == 7 else source
    a = preprocessed(source, root_a, build_a).splitlines()
    b = preprocessed(source_b, root_b, build_b).splitlines()
    for number, (line_a, line_b) in enumerate(zip(a, b), start=1):
        if line_a != line_b:
            print(f"{source}: the preprocessed texts differ at line {number}:\n  {build_a}: {line_a}\n"
                  f"  {build_b}: {line_b}")
            return 1
    if len(a) != len(b):
        print(f"{source}: the preprocessed texts are {len(a)} and {len(b)} lines long")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
