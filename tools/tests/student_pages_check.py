#!/usr/bin/env python3
"""Every path and command a student-facing page names exists in the student repository.

usage: student_pages_check.py REPOSITORY

The pages: README.md, docs/*.md and assignments/*/README.md of an exported
student repository. Checked on each:
  - a relative Markdown link, [text](path), names a file or folder, relative
    to the page (as GitHub resolves it);
  - a path in backticks (`docs/grading.md`, `src/generate.cpp`,
    `rooflab/cuda_cpu.hpp`) exists relative to the repository, the page's
    folder, or an include folder (common/include, the labs' include/), the
    ways the pages use them; outputs a build writes (build/...) are not
    checked;
  - a `./lab COMMAND` or `lab COMMAND` is a command that the student's lab
    lists in its help (`./lab help`), and `lab bench NAME` a benchmark it lists.
It prints every problem with its page and line, and exits 1 when there is one.
"""
import re
import subprocess
import sys
from pathlib import Path

# What a build or a run writes, and names that are not paths of this repository.
NOT_CHECKED = re.compile(r"^(build/|/|~|\$|https?:|\.\./|.*[*<>{}…]|.*\.\.\.)")
PATHLIKE = re.compile(r"^[A-Za-z0-9_.\-]+(/[A-Za-z0-9_.\-]+)+/?$")
LAB_COMMAND = re.compile(r"(?:^|[\s`(])(?:\./)?lab ([a-z][a-z-]*)(?: ([a-z][a-z-]*))?")


def student_commands(repository):
    help_text = subprocess.run(["./lab", "help"], cwd=repository, stdout=subprocess.PIPE, text=True,
                               check=True).stdout
    commands = set(re.findall(r"^  ([a-z][a-z-]*)", help_text, re.MULTILINE)) | {"help"}
    benches = set(re.findall(r"bench ([a-z][a-z-]*)", help_text))
    return commands, benches


def pages(repository):
    yield repository / "README.md"
    yield from sorted((repository / "docs").glob("*.md"))
    yield from sorted((repository / "assignments").glob("*/README.md"))


def main():
    repository = Path(sys.argv[1]).resolve()
    commands, benches = student_commands(repository)
    includes = [repository / "common" / "include"] + sorted(repository.glob("assignments/*/include"))
    problems = []
    for page in pages(repository):
        relative_page = page.relative_to(repository)
        bases = [repository, page.parent] + includes
        in_fence = False
        for number, line in enumerate(page.read_text().splitlines(), 1):
            where = f"{relative_page}:{number}"
            if line.lstrip().startswith("```"):
                in_fence = not in_fence
            for target in re.findall(r"\]\(([^)\s]+)\)", line):
                target = target.split("#")[0]
                if not target or re.match(r"^[a-z]+:", target):
                    continue
                if not (page.parent / target).exists():
                    problems.append(f"{where}: the link ({target}) leads nowhere")
            spans = re.findall(r"`([^`]+)`", line)
            for span in spans:
                if NOT_CHECKED.match(span) or not PATHLIKE.match(span):
                    continue
                if not any((base / span).exists() for base in bases):
                    problems.append(f"{where}: `{span}` is not in the student repository")
            # Commands: in code blocks, and in backticks elsewhere.
            for text in ([line] if in_fence else spans):
                for command, argument in LAB_COMMAND.findall(text):
                    if command not in commands:
                        problems.append(f"{where}: `lab {command}` is not a command of the student's lab")
                    elif command == "bench" and argument and argument not in benches:
                        problems.append(f"{where}: `lab bench {argument}` is not a benchmark the student's lab lists")
    for problem in problems:
        print(problem)
    print(f"student pages: {sum(1 for _ in pages(repository))} pages checked, {len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
