"""The allocator settings of a batch run (analyzer.allocator), checked in fresh processes: the variable is
read by Polars when it loads, so only a process that has not loaded Polars yet shows what analyzer sets."""

import os
import subprocess
import sys

import pytest

from analyzer.allocator import ALLOCATOR_VARIABLE, BATCH_SETTINGS, POLARS_SETTINGS

SHOW = "import os, {first}; print(os.environ.get({name!r}, ''))"


def _variable_after(first: str, value: str | None) -> str:
    env = {k: v for k, v in os.environ.items() if k != ALLOCATOR_VARIABLE}
    if value is not None:
        env[ALLOCATOR_VARIABLE] = value
    code = SHOW.format(first=first, name=ALLOCATOR_VARIABLE)
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    return done.stdout.strip()


@pytest.mark.parametrize("inherited", [None, POLARS_SETTINGS])
def test_analyzer_loaded_first_keeps_freed_memory_longer(inherited):
    # unset, or only what Polars wrote into a parent process's environment: ours come last, so they win
    assert _variable_after("analyzer", inherited).endswith(f",{BATCH_SETTINGS}")


def test_a_users_own_setting_is_left_alone():
    value = _variable_after("analyzer", "dirty_decay_ms:500")
    assert value.endswith(",dirty_decay_ms:500") and BATCH_SETTINGS not in value


def test_polars_loaded_first_is_left_alone():
    assert BATCH_SETTINGS not in _variable_after("polars, analyzer", None)
