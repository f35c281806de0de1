"""The course tests' checks: a line `ok    WHAT` or `FAIL  WHAT` each, and last
`N passed, N failed` (finish)."""
import sys

passed = failed = 0


def expect(ok, what, detail=""):
    global passed, failed
    if ok:
        passed += 1
        print("ok    " + what, flush=True)
    else:
        failed += 1
        print("FAIL  " + what + ("\n" + str(detail) if detail else ""), flush=True)
    return ok


def finish(code=None):
    """Prints the count and exits: `code` where given, else 1 on any failure."""
    print("%d passed, %d failed" % (passed, failed))
    sys.exit(code if code is not None else (1 if failed else 0))
