# SPDX-License-Identifier: BSD-3-Clause
"""`./amp simulate --calibrate`: measures this machine (amp-micro pingpong at 2 ranks) into a network file
that says which host it measured, and tells whether a network file is such a calibration of the host a
trace was recorded on (only there is a prediction comparable with the trace's measured time)."""
import contextlib
import fcntl
import os
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import time

from amp_tools import launch
from amp_tools import machine_load
from amp_tools import results
from amp_tools.simulate_errors import OutputError, SimulatorError, UsageError

HEADER = "# This machine, measured by `./amp simulate --calibrate`"
HOST_LINE = "# calibrated host: "  # the host the calibration measured, as a trace's .meta names it (hostname=)


def output_file(args):
    """The network file a calibration writes: --output, or inputs/networks/this-machine.toml; an empty name,
    a symbolic link or a directory is refused (a calibration writes one new file of its own)."""
    if args.output is None:
        return os.path.join(args.root, "inputs", "networks", "this-machine.toml")
    output = args.output
    if not output.strip():
        raise UsageError("--output is empty: give the network file to write (or leave --output out for "
                         "inputs/networks/this-machine.toml)")
    if os.path.islink(output):
        raise UsageError(f"{output}: is a symbolic link; give the file itself (a calibration never writes "
                         f"through a link)")
    if os.path.isdir(output):
        raise UsageError(f"{output}: is a directory; give the network file to write")
    return output


def this_host():
    """This machine's name, on one line."""
    return " ".join(socket.gethostname().split()) or "unknown"


def calibrated_host(network_path):
    """The host a calibration file measured (its HOST_LINE; an older calibration without one: this machine),
    or None where the file is not a calibration."""
    try:
        with open(network_path, errors="replace") as f:
            text = f.read()
    except OSError:
        return None
    if not text.startswith(HEADER):
        return None
    host = re.search(f"^{re.escape(HOST_LINE)}(.*)$", text, re.MULTILINE)
    return host.group(1).strip() if host else this_host()


def recorded_host(meta):
    """The host a recorded trace ran on (rank 0's, its .meta's hostname=), or None."""
    try:
        with open(meta, errors="replace") as f:
            found = re.search(r"^hostname=(.*)$", f.read(), re.MULTILINE)
    except OSError:
        return None
    return found.group(1).strip() if found else None


def models_recorded_machine(network_path, meta):
    """Whether the network file is a calibration of the host the trace of `meta` was recorded on."""
    host = recorded_host(meta)
    return host is not None and calibrated_host(network_path) == host


def calibrate(args):
    """amp-micro pingpong between 2 ranks of this machine: latency from the smallest message, bandwidth
    from the large ones (time = latency + bytes / bandwidth), one node with a rank per core. One
    calibration at a time on a machine: two would measure each other."""
    output = args.output = output_file(args)
    if os.path.exists(output) and not args.replace:
        raise UsageError(f"{output}: already exists (give --replace to measure again, or another --output)")
    with measuring_alone():
        rows, shared = pingpong(args)
    latency = rows[0]["latency_us_min"] * 1e-6
    large = [r for r in rows if r["bytes"] >= 256 * 1024]
    spans = [r["latency_us_min"] * 1e-6 - latency for r in large]  # a large message's time beyond the latency
    bandwidth = (statistics.median(r["bytes"] / span for r, span in zip(large, spans)) if all(s > 0 for s in spans)
                 else float("nan"))
    if not (0 < latency < 1 and 0 < bandwidth < float("inf")):
        raise SimulatorError(f"the ping-pong gave no usable machine (latency {latency * 1e6:.4g} us, bandwidth "
                             f"{bandwidth / 1e9:.4g} GB/s{': ' + shared if shared else ''}); nothing written")
    if shared:
        print(f"amp simulate: warning: the calibration's ping-pong shared the cores: {shared}", file=sys.stderr)
    write_calibration(args, rows, latency, bandwidth, shared)
    print(f"calibrated this machine: latency {latency * 1e6:.3f} us, bandwidth {bandwidth / 1e9:.3f} GB/s, "
          f"{args.cores} ranks per node -> {output}")


CALIBRATION_LOCK = os.path.join(tempfile.gettempdir(), "amp-calibrate.lock")


@contextlib.contextmanager
def measuring_alone():
    """Holds this machine's calibration lock (flock on CALIBRATION_LOCK, released when the process ends
    however it ends); a second calibration started meanwhile is refused in one line, exit 2."""
    try:
        fd = os.open(CALIBRATION_LOCK, os.O_RDONLY | os.O_CREAT, 0o644)
    except OSError:  # another user's lock file where /tmp refuses O_CREAT on it: open it as it is
        try:
            fd = os.open(CALIBRATION_LOCK, os.O_RDONLY)
        except OSError as e:
            raise OutputError(f"{CALIBRATION_LOCK}: cannot open the calibration lock ({e.strerror or e})") from None
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise UsageError("another calibration is measuring this machine now (two at once measure each "
                             "other); run one at a time") from None
        yield
    finally:
        os.close(fd)  # closing releases the lock


def pingpong(args):
    """The ping-pong's rows (one per message size) and the machine_load warning text, or None."""
    micro = os.path.join(args.build, "bin", "amp-micro")
    with tempfile.TemporaryDirectory(prefix="amp-calibrate-") as workdir:
        pingpong = os.path.join(workdir, "pingpong.json")
        env = dict(os.environ, OMP_NUM_THREADS="1", OMP_PROC_BIND="false")
        done = subprocess.run(launch.mpiexec(args.mpiexec, 2,
                                             [micro, "pingpong", "--min-size", "8", "--max-size", "4MiB",
                               "--iterations", "1000", "--repetitions", "5", "--results", pingpong]),
                              capture_output=True, text=True, env=env)
        if done.returncode != 0:
            raise SimulatorError("amp-micro pingpong failed: " + " | ".join(done.stderr.strip().splitlines()[-3:]))
        run = results.load(pingpong)
    return run["rows"], machine_load.shared_cores(run)


def write_calibration(args, rows, latency, bandwidth, shared):
    """The network file, linked into place whole: a second calibration to one new name never replaces it."""
    output = args.output
    noisy = f"# NOISY: {shared}\n" if shared else ""
    text = f"""{HEADER} on {time.strftime('%Y-%m-%d %H:%M')}:
# amp-micro pingpong between 2 ranks (latency: {rows[0]['bytes']}-byte half round trip; bandwidth: median
# over messages of 256 KiB to 4 MiB of bytes / (time - latency)). One node, one rank per core; every
# message goes through the node's loopback (shared memory).
{HOST_LINE}{this_host()}
{noisy}topology = "flat"
nodes = 1
ranks_per_node = {args.cores}
link_bandwidth = {bandwidth:.4g}
link_latency = {latency:.4g}
loopback_bandwidth = {bandwidth:.4g}
loopback_latency = {latency:.4g}
host_speed = 1e9
routing = "minimal"
"""
    os.makedirs(os.path.dirname(os.path.abspath(output)), exist_ok=True)
    partial = f"{output}.partial-{os.getpid()}"
    try:  # created new, never opened through a link or over a file of someone else's
        fd = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
    except OSError as e:
        raise OutputError(f"{partial}: cannot create ({e.strerror or e})") from None
    try:
        with open(fd, "w") as f:
            f.write(text)
        if args.replace:
            os.replace(partial, output)
        else:
            os.link(partial, output)  # never replaces: a second calibration to one new name is refused
    except FileExistsError:
        raise UsageError(f"{output}: appeared while measuring; kept as it is") from None
    except OSError as e:
        raise OutputError(f"{output}: cannot write ({e.strerror or e})") from None
    finally:
        if os.path.exists(partial):
            os.remove(partial)
