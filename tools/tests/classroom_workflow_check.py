#!/usr/bin/env python3
"""Checks the student repository's GitHub Classroom workflow and runs it locally.

usage: classroom_workflow_check.py REPOSITORY SOLUTIONS {stubs|solved}

It parses .github/workflows/classroom.yml, checks its shape (checkout, the
build, one command grader per public group, the reporter listing every grader
and its result), checks that the graders' points add up to the public rubric
(visible groups that need no GPU and are not a bonus, read here from the rubrics
themselves), then
runs every step's commands in REPOSITORY as Classroom would: the `run` steps
as they are, each grader's command with only PATH and HOME set (what the
command grader passes on) and its timeout. On the stubs every grader must fail;
on finished code every grader must pass.
"""
import os
import subprocess
import sys
import tomllib
from pathlib import Path

import yaml

GRADER = "classroom-resources/autograding-command-grader@v1"
REPORTER = "classroom-resources/autograding-grading-reporter@v1"


def fail(message):
    print(f"FAIL: {message}", file=sys.stderr)
    sys.exit(1)


def public_points(solutions):
    total = 0.0
    for rubric_path in sorted(Path(solutions).glob("*/grading/rubric.toml")):
        rubric = tomllib.loads(rubric_path.read_text())
        for group in rubric.get("group", []):
            # A bonus group's grader is worth 0: Classroom has no extra credit.
            if (group.get("visibility", "visible") == "visible" and "GPU only" not in group["name"]
                    and not group.get("bonus", False)):
                total += group["points"]
    return total


def main():
    repository, solutions, phase = Path(sys.argv[1]), sys.argv[2], sys.argv[3]
    workflow = yaml.safe_load((repository / ".github/workflows/classroom.yml").read_text())
    # YAML 1.1 reads a bare `on` as true: the workflow quotes it.
    if "on" not in workflow or "push" not in workflow["on"]:
        fail("the workflow does not run on push")
    jobs = list(workflow["jobs"].values())
    if len(jobs) != 1:
        fail(f"expected one job, found {len(jobs)}")
    steps = jobs[0]["steps"]
    if steps[0].get("uses", "").split("@")[0] != "actions/checkout":
        fail("the first step does not check the repository out")
    graders = [step for step in steps if step.get("uses") == GRADER]
    reporters = [step for step in steps if step.get("uses") == REPORTER]
    if not graders or len(reporters) != 1 or steps[-1] is not reporters[0]:
        fail("expected command graders followed by one reporter, last")
    ids = [step["id"] for step in graders]
    if len(set(ids)) != len(ids):
        fail("two graders share an id")
    reporter = reporters[0]
    if reporter["with"]["runners"].split(",") != ids:
        fail("the reporter's runners are not the graders, in order")
    for grader_id in ids:
        expected = "${{ steps.%s.outputs.result }}" % grader_id
        if reporter["env"].get(grader_id.upper() + "_RESULTS") != expected:
            fail(f"the reporter does not receive {grader_id}'s result")
    points = sum(float(step["with"]["max-score"]) for step in graders)
    if points != public_points(solutions):
        fail(f"the graders are worth {points} points, the public rubric {public_points(solutions)}")
    print(f"workflow: {len(graders)} graders, {points:g} points (the public rubric's), reporter wired")

    for step in steps:
        if "run" in step:
            print(f"== run: {step['run']}")
            if subprocess.run(["bash", "-c", step["run"]], cwd=repository).returncode != 0:
                fail(f"step '{step['name']}' failed")
    clean_environment = {"PATH": os.environ["PATH"], "HOME": os.environ.get("HOME", "/tmp")}
    for step in graders:
        arguments = step["with"]
        result = subprocess.run(["bash", "-c", arguments["command"]], cwd=repository, env=clean_environment,
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                timeout=60 * float(arguments["timeout"]))
        passed = result.returncode == 0
        print(f"   {'pass' if passed else 'fail'}: {arguments['test-name']} ({arguments['max-score']} points)")
        if "No tests were found" in result.stdout:
            fail(f"{arguments['test-name']}: its command matches no test")
        if passed != (phase == "solved"):
            print(result.stdout[-3000:])
            fail(f"{arguments['test-name']}: expected to {'pass' if phase == 'solved' else 'fail'} on the {phase}")
    print(f"workflow ran locally: every grader {'passed' if phase == 'solved' else 'failed'} on the {phase}")


if __name__ == "__main__":
    main()
