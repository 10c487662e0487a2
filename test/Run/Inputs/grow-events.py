"""Plays a finished event file back as a growing one, for `tessera-prof
monitor --follow` (test/Run/prof-monitor.test).

usage: grow-events.py SRC DST -- MONITOR-COMMAND...

Starts the monitor first (DST does not exist yet, so it must wait for it),
then writes SRC into DST in ten pieces cut at arbitrary bytes, mid-record,
pausing between them, and prints what the monitor printed once it exits.
Fails if the monitor does not exit within 60 s.
"""
import subprocess
import sys
import time

src, dst = sys.argv[1], sys.argv[2]
command = sys.argv[sys.argv.index("--") + 1:]
data = open(src, "rb").read()
monitor = subprocess.Popen(command, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True)
time.sleep(0.3)
piece = len(data) // 10 + 1
with open(dst, "wb") as out:
    for at in range(0, len(data), piece):
        out.write(data[at:at + piece])
        out.flush()
        time.sleep(0.15)
try:
    stdout, stderr = monitor.communicate(timeout=60)
except subprocess.TimeoutExpired:
    monitor.kill()
    sys.exit("grow-events: the monitor did not exit")
sys.stdout.write(stdout)
sys.stdout.write("stderr: " + stderr)
sys.stdout.write(f"exit {monitor.returncode}\n")
