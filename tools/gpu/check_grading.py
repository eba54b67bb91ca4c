#!/usr/bin/env python3
"""Checks a grading that run_all.sh made on a GPU (step 8): the reference's
results.json earns every point of every scored test, and the GPU cross-check
ran and agreed with the CPU runtime on every test (autograder/README.md, "The
GPU cross-check"). Prints the score and the cross-check's notes; exits 1, naming
what is wrong, otherwise.

usage: check_grading.py RESULTS_JSON
"""
import json
import sys

CROSS_CHECK = "GPU cross-check: the tests ran again on this machine's GPU"


def problems_in(results):
    problems = []
    for test in results.get("tests", []):
        if "status" not in test:  # plots, leaderboard, the total: worth nothing either way
            continue
        if test["status"] != "passed" or test.get("score", 0) < test.get("max_score", 0):
            problems.append(f"{test['name']}: {test['status']}, {test.get('score')} / {test.get('max_score')}")
        if "[GPU cross-check: " in test.get("output", ""):
            problems.append(f"{test['name']}: the GPU disagreed: {test['output'].strip()[:400]}")
    notes = [line for line in results.get("output", "").splitlines() if "GPU cross-check" in line]
    if not any(CROSS_CHECK in line for line in notes):
        problems.append("no GPU cross-check ran (its note is missing from the output)")
    for line in notes:
        if CROSS_CHECK not in line:
            problems.append(line)
    return notes, problems


def main(argv):
    if len(argv) != 2:
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    try:
        with open(argv[1], encoding="utf-8") as file:
            results = json.load(file)
    except (OSError, ValueError) as error:
        print(f"{argv[1]}: cannot read the grading's results: {error}", file=sys.stderr)
        return 1
    notes, problems = problems_in(results)
    print(f"score {results.get('score')}")
    for line in notes:
        print(line)
    for problem in problems:
        print(f"PROBLEM: {problem}", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
