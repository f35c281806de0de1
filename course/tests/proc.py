"""Running a command for the course tests: its exit status and output."""
import subprocess


def run(cmd, cwd=None, log=None):
    """(exit status, output: stdout and stderr together); the output also goes
    to the file `log` when given."""
    p = subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, errors="replace")
    if log:
        with open(log, "w") as f:
            f.write(p.stdout)
    return p.returncode, p.stdout


def tail(text, lines=30):
    """The last `lines` lines of text."""
    return "\n".join(text.splitlines()[-lines:])
