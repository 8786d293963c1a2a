"""The CLI: a JSON request on stdin, a JSON object on stdout; exit 2 and one line for bad input."""

from __future__ import annotations

import json
import os
import sys

from . import InvalidRequest, commit_request, odds, resolve

USAGE = "usage: python -m skillcheck resolve|odds|commit < request.json"
COMMANDS = {"resolve": resolve, "odds": odds, "commit": commit_request}


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) != 1 or argv[0] not in COMMANDS:
        print(USAGE, file=sys.stderr)
        return 2
    try:
        request = json.loads(sys.stdin.read())
        print(json.dumps(COMMANDS[argv[0]](request)))
    except InvalidRequest as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        # The reader went away (`| head`): say nothing more, as other command-line tools do.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    except (ValueError, RecursionError, UnicodeDecodeError) as error:
        reason = str(error).splitlines()[0] if str(error) else "too deeply nested"
        print(f"error: request: not valid JSON ({reason})", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
