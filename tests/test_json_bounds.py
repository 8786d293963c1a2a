"""Any JSON the page reads is read within bounds: storage.loads checks how deep it nests before
json.loads recurses (in the browser, a value nested 10,000 deep ran the engine out of stack and
killed the runtime at every start). Stored values that nest too deep are backed up and said, as
any unreadable value is; imported files and links are refused with their reason."""

from __future__ import annotations

import base64
import json
import zlib

import pytest
from app import characters, form_memory, links, log_model
from app.storage import DEEPEST, EnvelopeError, MemoryStorage, loads, nesting, parse
from hypothesis import given
from hypothesis import strategies as st

# Strings full of what could fool a count of brackets: brackets, quotes, backslashes, escapes.
TRICKY = st.text(alphabet=st.sampled_from('[]{}"\\/ab\n\u00e9\u2028\ud83c\udfb2'), max_size=8)
JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | TRICKY,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(TRICKY, inner, max_size=4),
    max_leaves=40)


def depth(value: object) -> int:
    if isinstance(value, list):
        return 1 + max(map(depth, value), default=0)
    if isinstance(value, dict):
        return 1 + max(map(depth, value.values()), default=0)
    return 0


def nested(levels: int, inner: str = "") -> str:
    return "[" * levels + inner + "]" * levels


@given(JSON, st.booleans())
def test_the_count_is_exact_for_json(value, ascii_only):
    text = json.dumps(value, ensure_ascii=ascii_only)
    assert nesting(text) == depth(value)


@given(st.text(alphabet=st.sampled_from('[]{}"\\,:1 a'), max_size=60))
def test_the_count_is_never_below_what_json_loads_made(text):
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):
        return
    assert nesting(text) >= depth(value)


def test_the_count_stops_past_its_cap():
    assert nesting(nested(100_000)) == DEEPEST + 1
    assert nesting(nested(100_000), cap=5) == 5
    assert nesting("[" * 100_000) == DEEPEST + 1  # never closed: as deep for json


def test_up_to_the_bound_is_read_and_beyond_it_is_refused_before_parsing():
    assert loads(nested(DEEPEST)) == json.loads(nested(DEEPEST))
    for levels in (DEEPEST + 1, 10_000, 100_000):
        with pytest.raises(EnvelopeError, match=f"more than {DEEPEST} levels deep"):
            loads(nested(levels))


def test_brackets_inside_strings_do_not_count():
    text = json.dumps({"notes": "[" * 100_000 + '\\"' + "{" * 10})
    assert nesting(text) == 1
    assert loads(text)["notes"].startswith("[[[")


def test_a_deep_document_is_refused_with_its_reason():
    text = '{"version":1,"kind":"skillcheck.log","entries":' + nested(100_000) + "}"
    with pytest.raises(EnvelopeError, match="more than 100 levels deep"):
        parse(text, "skillcheck.log", 10**7)


@pytest.mark.parametrize(("key", "make"), [
    (log_model.LOG_KEY, log_model.RollLog),
    (characters.CHARACTERS_KEY, characters.Roster),
], ids=["log", "characters"])
def test_a_stored_value_nested_10000_deep_is_backed_up_and_said(key, make):
    raw = nested(10_000)
    store = MemoryStorage({key: raw})
    loaded = make(store)
    assert len(loaded) == 0
    assert "more than 100 levels deep" in loaded.warnings[0]
    backups = [k for k in store.data if k.startswith(key + ".corrupt-")]
    assert [store.data[k] for k in backups] == [raw]


def test_kept_forms_nested_deep_are_dropped_quietly():
    assert form_memory.read(nested(100_000)) == form_memory.FormMemory()


def test_an_imported_file_nested_deep_says_why():
    with pytest.raises(characters.CharactersFileError, match="more than 100 levels deep"):
        characters.read_file(nested(100_000))
    with pytest.raises(log_model.LogFileError, match="more than 100 levels deep"):
        log_model.RollLog(MemoryStorage()).import_json(nested(100_000))


def link(document: dict) -> str:
    packer = zlib.compressobj(9, zlib.DEFLATED, -15)
    packed = packer.compress(json.dumps(document).encode()) + packer.flush()
    return "#r=1." + base64.urlsafe_b64encode(packed).rstrip(b"=").decode()


def test_a_link_nested_past_the_bound_is_not_read():
    time = "2026-11-29T18:00:00Z"
    shallow = {"q": {"system": "passages", "x": json.loads(nested(DEEPEST - 2))}, "t": time,
               "o": "success"}
    assert links.read_link(link(shallow))["request"] == shallow["q"]
    deep = {**shallow, "q": {"system": "passages", "x": json.loads(nested(DEEPEST))}}
    with pytest.raises(links.LinkError, match="does not hold a check"):
        links.read_link(link(deep))
