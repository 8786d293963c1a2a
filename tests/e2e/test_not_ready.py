"""A page that never becomes ready fails its test with what it had done by then (ready.py): the
stages it reached, the files it fetched, its console, or that its main thread no longer answers."""

from __future__ import annotations

import pytest
from ready import wait_ready

STALLED = """<!doctype html><title>stalled</title><script>
performance.mark("skillcheck runtime: starting from the snapshot");
document.documentElement.dataset.boot = "snapshot";
console.warn("waiting for something that never comes");
</script>"""
BUSY = "setTimeout(() => { const end = Date.now() + 8000; while (Date.now() < end); })"


@pytest.fixture(scope="module")
def page(module_contexts):
    return module_contexts().new_page()


def test_a_page_never_ready_is_failed_with_its_stages_and_console(page):
    page.set_content(STALLED)
    with pytest.raises(pytest.fail.Exception) as failed:
        wait_ready(page, 500)
    said = str(failed.value)
    assert "not ready in 0.5 s" in said
    assert "skillcheck runtime: starting from the snapshot" in said
    assert "'boot': 'snapshot'" in said
    assert "warning: waiting for something that never comes" in said


def test_a_page_whose_main_thread_is_stuck_is_failed_saying_so(page):
    page.set_content("<!doctype html><title>busy</title>")
    page.evaluate(BUSY)
    with pytest.raises(pytest.fail.Exception) as failed:
        wait_ready(page, 500)
    assert "its main thread did not answer" in str(failed.value)
