"""build.py's snapshot step: which Node it trusts, and building without a snapshot when none."""

import json
import stat
from pathlib import Path

import pytest

import build


def fake_node(folder: Path, version: str) -> Path:
    """An executable `node` that only answers --version."""
    folder.mkdir(parents=True, exist_ok=True)
    node = folder / "node"
    node.write_text(f"#!/bin/sh\necho v{version}\n")
    node.chmod(node.stat().st_mode | stat.S_IXUSR)
    return node


@pytest.fixture
def no_pinned_node(tmp_path, monkeypatch):
    """No pinned Node, no npm to fetch one, nothing on the PATH but what the test puts there."""
    monkeypatch.setattr(build, "SNAPSHOT_TOOL", tmp_path / "tool")
    monkeypatch.delenv("SNAPSHOT_NODE", raising=False)
    monkeypatch.setenv("PATH", str(tmp_path / "bin"))
    return tmp_path / "bin"


def test_node_20_is_not_trusted_with_snapshots(no_pinned_node):
    fake_node(no_pinned_node, "20.20.2")
    assert build.snapshot_node() is None


def test_node_24_on_the_path_is_used(no_pinned_node):
    node = fake_node(no_pinned_node, "24.1.0")
    assert build.snapshot_node() == str(node)


def test_snapshot_node_names_a_node_24_explicitly(no_pinned_node, tmp_path, monkeypatch):
    fake_node(no_pinned_node, "20.20.2")
    chosen = fake_node(tmp_path / "elsewhere", "25.0.0")
    monkeypatch.setenv("SNAPSHOT_NODE", str(chosen))
    assert build.snapshot_node() == str(chosen)


def test_without_a_node_24_the_build_says_so_and_keeps_the_normal_boot(
        no_pinned_node, tmp_path, capsys):
    dist = tmp_path / "dist"
    dist.mkdir()
    config = {"interpreter": build.INTERPRETER, "files": {}}
    (dist / "pyscript.json").write_text(json.dumps(config))
    assert build.make_snapshot(dist) is False
    assert json.loads((dist / "pyscript.json").read_text()) == config
    assert not (dist / "static" / "snapshot").exists()
    assert "building without it" in capsys.readouterr().err
