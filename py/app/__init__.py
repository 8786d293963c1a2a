"""The page's glue: forms, rendering and boot.

The rule that keeps most of it testable under plain CPython: only the *_panel.py modules, main.py,
dom.py and browser.py import the browser (pyscript, js, pyodide). Every other module here is pure
Python — models of the log and the characters, links, HTML built as escaped strings — imports no
module of those four, and is already imported in the start-up snapshot
(tests/test_snapshot_preload.py asserts this).
"""
