"""tools/stdlib/trim.py under CPython: what the closure keeps and what it leaves out, on a small
standard library of its own."""

from __future__ import annotations

import importlib.util
import io
import zipfile
import zipimport

import pytest

from tools.stdlib import trim

LIBRARY = {
    "encodings/": b"",
    "encodings/__init__.py": b"from . import aliases\n",
    "encodings/aliases.py": b'aliases = {"latin1": "latin_1", "cp1252": "cp1252"}\n',
    "encodings/latin_1.py": b"",
    "encodings/cp1252.py": b"",
    "encodings/cp437.py": b"",
    "encodings/utf_8.py": b"",
    "used.py": (b"import helper\n"
                b"def later():\n    import lazy\n"
                b"def loader():\n    import importlib\n"
                b"    return importlib.import_module('named')\n"
                b"def names(data, meta):\n    return data.decode(meta or 'cp437')\n"),
    "helper.py": b"\"\"\"Helps.\"\"\"\nTABLE = {'x': 'cp1252'}\nassert not TABLE\n",
    "lazy.py": b"",
    "named.py": b"",
    "importlib/__init__.py": b"",
    "cli.py": (b"def _parse(argv):\n    import argparse\n    return argparse\n"
               b"def main():\n    return _parse(None)\n"
               b"def api():\n    return 1\n"
               b"if __name__ == '__main__':\n    import unused\n    main()\n"),
    "argparse.py": b"",
    "unused.py": b"",
    "stray.py": b"import used\n",
    "pkg/": b"",
    "pkg/__init__.py": b"def f():\n    from . import sub\n",
    "pkg/sub.py": b"",
    "pkg/data.txt": b"kept with pkg",
    "other/": b"",
    "other/__init__.py": b"",
    "other/data.txt": b"left with other",
    "pydoc.py": b"import unused\n",
    "site.py": b"def help():\n    import pydoc\n",
}


def library(files: dict[str, bytes] = LIBRARY) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as packed:
        for name, body in files.items():
            packed.writestr(zipfile.ZipInfo(name), body)
    return out.getvalue()


def trimmed(app: bytes, scripts: tuple[str, ...] = (), observed: tuple[str, ...] = (),
            frozen: tuple[str, ...] = ()):
    packed, kept, _ = trim.trim(library(), {"app/main.py": app}, list(scripts), list(observed),
                                list(frozen))
    return zipfile.ZipFile(io.BytesIO(packed)).namelist(), kept


def test_lazy_and_named_imports_are_kept_and_the_rest_is_left_out():
    names, kept = trimmed(b"import used\n")
    assert {"used", "helper", "lazy", "named", "importlib", "encodings.cp437"} <= set(kept)
    assert "used.pyc" in names and "lazy.py" in names  # bytecode: imported at once
    assert "stray.py" not in names and "other/__init__.py" not in names


def test_a_codec_named_in_a_table_is_not_a_codec_used():
    """encodings.aliases and helper.TABLE name cp1252 in dicts; nobody decodes with it."""
    _, kept = trimmed(b"import used\nimport encodings\n")
    assert "encodings.cp1252" not in kept
    assert {"encodings", "encodings.aliases"} <= set(kept)


def test_a_modules_command_line_part_is_not_followed():
    """Imports under `if __name__ == "__main__":`, and in functions only it calls, never run
    when the module is imported."""
    _, kept = trimmed(b"import cli\n")
    assert "cli" in kept
    assert "unused" not in kept and "argparse" not in kept


def test_a_package_keeps_its_data_and_its_lazily_imported_submodules():
    names, _ = trimmed(b"import pkg\n")
    assert {"pkg/", "pkg/__init__.pyc", "pkg/sub.py", "pkg/data.txt"} <= set(names)
    assert "other/data.txt" not in names


def test_imports_in_the_runtimes_javascript_and_what_ran_are_roots():
    script = r'run("import json\nfrom pkg import sub\n");x.pyimport("_pyodide._base")'
    assert {"json", "pkg", "pkg.sub"} <= trim.script_imports(script)
    _, kept = trimmed(b"", scripts=(script,), observed=("lazy",))
    assert {"pkg", "pkg.sub", "lazy"} <= set(kept)


def test_dropped_modules_are_not_entered():
    _, kept = trimmed(b"import site\n")
    assert "site" in kept and "pydoc" not in kept and "unused" not in kept


def test_a_dropped_module_imported_directly_fails_the_trim():
    with pytest.raises(trim.TrimError, match="pydoc"):
        trimmed(b"import pydoc\n")


def test_the_same_input_gives_the_same_bytes():
    first = trim.trim(library(), {"app/main.py": b"import used\n"}, [], [])
    assert first == trim.trim(library(), {"app/main.py": b"import used\n"}, [], [])


def test_what_a_start_imports_is_shipped_as_bytecode_and_the_rest_as_source():
    """used and helper are imported at once; lazy, named and pkg.sub only when a function
    runs; the interpreter was seen importing cli; encodings is frozen into it."""
    names, _ = trimmed(b"import used\nimport pkg\ndef f():\n    import stray\n",
                       observed=("cli", "encodings"), frozen=("encodings",))
    assert {"used.pyc", "helper.pyc", "pkg/__init__.pyc", "cli.pyc"} <= set(names)
    assert {"lazy.py", "named.py", "pkg/sub.py", "stray.py", "encodings/__init__.py"} <= set(names)
    assert not {"used.py", "helper.py", "lazy.pyc", "encodings/__init__.pyc"} & set(names)
    assert trim.module_paths(names)["helper"] == "helper.pyc"


def test_the_bytecode_imports_as_python_minus_oo_compiles_it(tmp_path):
    """No docstring, no assert (helper's would fail), and tracebacks name the library's file."""
    packed, _, at_start = trim.trim(library(), {"app/main.py": b"import helper\n"}, [], [])
    assert at_start == ["helper"]
    (tmp_path / "lib.zip").write_bytes(packed)
    spec = zipimport.zipimporter(str(tmp_path / "lib.zip")).find_spec("helper")
    helper = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(helper)
    assert helper.TABLE == {"x": "cp1252"} and helper.__doc__ is None
    assert helper.__file__.endswith("helper.pyc")
    code = zipimport.zipimporter(str(tmp_path / "lib.zip")).get_code("helper")
    assert code.co_filename == trim.MOUNTED_AT + "helper.py"
