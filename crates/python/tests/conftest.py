"""Shared helpers: the repository's seed tables and the `nimlab` CLI to compare with."""

import json
import os
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

REPO = Path(__file__).resolve().parents[3]
SEED_DATA = REPO / "crates" / "games" / "tests" / "data"


def seed_table(name: str) -> np.ndarray:
    """A seed table (rows y, columns x) from crates/games/tests/data."""
    lines = (SEED_DATA / name).read_text().strip().splitlines()
    return np.array([[int(v) for v in line.split("\t")[1:]] for line in lines[1:]])


def find_cli():
    """The `nimlab` binary: $NIMLAB_BIN (must exist), else the cargo target dir's
    release build, else `nimlab` on PATH; None if there is none."""
    given = os.environ.get("NIMLAB_BIN")
    if given:
        assert Path(given).is_file(), f"NIMLAB_BIN={given} does not exist"
        return given
    target = Path(os.environ.get("CARGO_TARGET_DIR", REPO / "target"))
    for candidate in (target / "release" / "nimlab", target / "debug" / "nimlab"):
        if candidate.is_file():
            return str(candidate)
    return shutil.which("nimlab")


@pytest.fixture(scope="session")
def cli():
    """Runs the CLI and returns (exit code, stdout, stderr); skips when there is no
    binary (build it with `cargo build --release -p nimlab`, or set NIMLAB_BIN)."""
    binary = find_cli()
    if binary is None:
        pytest.skip("no nimlab CLI binary (cargo build --release -p nimlab, or NIMLAB_BIN)")

    def run(*args):
        done = subprocess.run([binary, *args], capture_output=True, text=True, timeout=120)
        return done.returncode, done.stdout, done.stderr

    return run


@pytest.fixture(scope="session")
def cli_json(cli):
    """Runs the CLI with --format json and returns the parsed document."""

    def run(*args):
        code, out, err = cli(*args, "--format", "json")
        assert code in (0, 1), err
        return json.loads(out)

    return run
