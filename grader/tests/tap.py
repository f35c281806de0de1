"""tap.py, imported by the Python test scripts that run many checks: tap.sh's
twin. Each check one TAP line, which Meson's test runner counts (protocol:
'tap'); other output as TAP comments (note); end() prints the plan and
returns the script's exit status."""
import sys

count = failed = 0


def note(text):
    """Text as TAP comments, a line each."""
    for line in str(text).rstrip("\n").split("\n"):
        print("# " + line, flush=True)


def expect(ok, what, detail=""):
    """One check: `ok N - WHAT`, or `not ok N - WHAT` and DETAIL as comments.
    Returns ok."""
    global count, failed
    count += 1
    failed += not ok
    print("%s %d - %s" % ("ok" if ok else "not ok", count, " ".join(str(what).split("\n"))), flush=True)
    if not ok and detail:
        note(detail)
    return ok


def skip(what, reason):
    """A check that cannot run here: `ok N - WHAT # SKIP REASON`."""
    global count
    count += 1
    print("ok %d - %s # SKIP %s" % (count, what, reason), flush=True)


def skip_all(reason):
    """The whole script skipped (a plan of none, which Meson reports as SKIP): exits."""
    print("1..0 # SKIP " + reason, flush=True)
    sys.exit(0)


def end():
    """The plan and the count; the exit status: 1 on any failure."""
    print("1..%d" % count)
    print("# %d passed, %d failed" % (count - failed, failed), flush=True)
    return 1 if failed else 0


def finish():
    sys.exit(end())
