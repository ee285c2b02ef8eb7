#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""SST-macro's NIC queue, end to end (`./amp simulate`, tools/amp_tools/simulate.py): its round-robin
queue is a ring of 1024 waiting messages that loses any more, and the replay then stops short. A burst of
8 KiB messages from rank 0 to rank 1 (tests/simulate/conformance_traces_program.cpp `burst`) on torus-4x4x4, one
rank to a node:
- 1000 messages finish with the round-robin queue: no note, the JSON says round_robin;
- 2000 messages stop it short (at 65 %): one note line, then the FIFO queue's replay, which the JSON
  names with the reason and its command carries;
- both predictions within 5 % of the NIC's time for the bytes (COUNT x 8 KiB / 10 GB/s);
- a network that gives its nic_queue is replayed with that queue alone: `nic_queue=fifo` replays 1000
  messages with FIFO (no note), `nic_queue=round_robin` ends the 2000 in one error line, exit 3 (the
  simulator failed), no JSON.

Usage: test_sstmac_queue.py BUILD ROOT WORKDIR    (exit 77 without AMP_SSTMAC)
"""
import json
import os
import re
import shutil
import subprocess
import sys

BYTES = 8192
NOTE = "amp simulate: note: with its round_robin NIC queue"


def fail(message):
    print(f"FAIL: {message}")
    sys.exit(1)


def simulate(build, root, workdir, count, given=(), fails=False):
    """(the simulation JSON, amp simulate's stderr) of a burst of `count` messages, with `given` network keys
    on top; where it `fails`, (None, its stderr) after checking that it wrote nothing."""
    trace = os.path.join(workdir, f"sstmac-queue-burst-{count}")
    shutil.rmtree(trace, ignore_errors=True)
    os.makedirs(trace)
    made = subprocess.run([os.path.join(build, "tests", "simulate_conformance_traces"), trace, "burst", str(BYTES),
                           str(count)], capture_output=True, text=True)
    if made.returncode != 0:
        fail(f"making the burst of {count}: {made.stderr.strip()}")
    network = os.path.join(root, "inputs", "networks", "torus-4x4x4.toml")
    done = subprocess.run([sys.executable, "-m", "amp_tools.simulate", trace, "--network", network, "--simulator",
                           "sstmac", "--build", build, "--root", root, "--set", "ranks_per_node=1",
                           *[f"--set={key}" for key in given]], capture_output=True, text=True)
    if fails:
        written = [f for f in os.listdir(trace) if f.startswith("simulation-")]
        if done.returncode != 3 or written:
            fail(f"burst of {count} with {given}: expected exit 3 and no JSON, got {done.returncode} and {written}")
        return None, done.stderr
    if done.returncode != 0:
        fail(f"burst of {count}: exit {done.returncode}: {done.stderr.strip()}")
    outputs = [f for f in os.listdir(trace) if f.startswith("simulation-") and f.endswith("-sstmac.json")]
    if len(outputs) != 1:
        fail(f"burst of {count}: expected one SST-macro simulation, found {outputs}")
    with open(os.path.join(trace, outputs[0])) as f:
        return json.load(f), done.stderr


def main():
    build, root, workdir = sys.argv[1:4]
    if not os.environ.get("AMP_SSTMAC"):
        print("skipped: set AMP_SSTMAC (SST-macro's sstmac)")
        sys.exit(77)
    for count, queue in ((1000, "round_robin"), (2000, "fifo")):
        result, stderr = simulate(build, root, workdir, count)
        given = result["simulated_network"]
        notes = [line for line in stderr.splitlines() if line.startswith(NOTE)]
        if given["injection_queue"] != queue or given["parameters"]["node.nic.queue"] != queue:
            fail(f"burst of {count}: replayed with the {given['injection_queue']} queue, expected {queue}")
        if f"node.nic.queue={queue}" not in given["command"]:
            fail(f"burst of {count}: the command in the JSON is not the {queue} replay: {given['command']}")
        if queue == "fifo":
            if len(notes) != 1 or not re.search(r" after \d+ s of the 1800 s limit; replaying with its fifo queue$",
                                                notes[0]):
                fail(f"burst of {count}: expected one note that the round-robin replay stopped short, got {notes}")
            if "1024" not in given.get("injection_queue_note", ""):
                fail(f"burst of {count}: the JSON does not say why the FIFO queue: {given.get('injection_queue_note')}")
        elif notes or "injection_queue_note" in given:
            fail(f"burst of {count}: the round-robin replay finished, yet a note says otherwise: {notes}")
        expected = count * BYTES / 10e9
        error = result["predicted_seconds"] / expected - 1
        print(f"burst of {count} x {BYTES} B: {queue} queue, predicted {result['predicted_seconds'] * 1e6:.1f} us, "
              f"the NIC's {expected * 1e6:.1f} us ({error * 100:+.1f}%)")
        if abs(error) > 0.05:
            fail(f"burst of {count}: {result['predicted_seconds']:.6g} s, more than 5 % from {expected:.6g} s")
    result, stderr = simulate(build, root, workdir, 1000, ["nic_queue=fifo"])
    if result["simulated_network"]["injection_queue"] != "fifo" or NOTE in stderr:
        fail(f"burst of 1000 with nic_queue=fifo: replayed with {result['simulated_network']['injection_queue']}")
    _, stderr = simulate(build, root, workdir, 2000, ["nic_queue=round_robin"], fails=True)
    errors = [line for line in stderr.splitlines() if line.startswith("amp simulate: error:")]
    if len(errors) != 1 or "nic_queue = 'round_robin' was given" not in errors[0] or NOTE in stderr:
        fail(f"burst of 2000 with nic_queue=round_robin: expected one error line naming the key, got {stderr!r}")
    print("ok: the round-robin queue where it finishes, the FIFO queue where it stopped short, and the queue a "
          "network gives alone")


if __name__ == "__main__":
    main()
