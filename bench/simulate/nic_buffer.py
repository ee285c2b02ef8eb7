#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""How SST-macro's prediction of a trace follows its NIC buffer (`node.nic.buffer`, the bytes a NIC may
have in the network before its router's credits come back; docs/TRACE_SIMULATORS.md): `./amp simulate`
with SST-macro, once per buffer size, the rest of its translation unchanged. Each replay runs on a copy of
the trace's DUMPI files in a scratch folder (the trace folder is only read). Each time names the NIC queue it
came from (round robin, or FIFO where round robin's ring of 1024 messages overflowed); a buffer at which
SST-macro stops short with both queues prints as "deadlock".

Usage: AMP_SSTMAC=... PYTHONPATH=tools python3 bench/simulate/nic_buffer.py TRACE NETWORK_FILE
           [--set KEY=VALUE ...] [--buffers 16384 65536 1048576] [--build BUILD]
"""
import argparse
import glob
import os
import shutil
import subprocess
import sys
import tempfile

import amp_tools  # noqa: E402
ROOT = amp_tools.REPOSITORY
from amp_tools import command_line  # noqa: E402
from amp_tools import results  # noqa: E402
from amp_tools import networks, simulate  # noqa: E402
from amp_tools.simulators import sstmac_machine  # noqa: E402

# Run as a child: one replay with the buffer of AMP_BENCH_NIC_BUFFER on top of sstmac_machine.sstmac_overrides.
if os.environ.get("AMP_BENCH_NIC_BUFFER"):
    plain = sstmac_machine.sstmac_overrides
    sstmac_machine.sstmac_overrides = lambda n, queue=None: {**plain(n, queue),
                                                       "node.nic.buffer": os.environ["AMP_BENCH_NIC_BUFFER"] + "B"}
    sys.argv = ["simulate", *sys.argv[1:]]
    sys.exit(simulate.main())


def main():
    p = argparse.ArgumentParser(parents=[command_line.common_options(launcher=False)])
    p.add_argument("trace")
    p.add_argument("network")
    p.add_argument("--set", action="append", default=[], metavar="KEY=VALUE")
    p.add_argument("--buffers", nargs="+", type=int, default=[16384, 65536, 1048576])
    a = p.parse_args()
    if not os.environ.get("AMP_SSTMAC"):
        sys.exit("nic_buffer: set AMP_SSTMAC to SST-macro's sstmac")
    network = networks.load(a.network, a.set)
    print(f"{a.trace} on {network.label} ({', '.join(a.set) or 'the file as it is'}), SST-macro:")
    for buffer in a.buffers:
        with tempfile.TemporaryDirectory(prefix="amp-nic-buffer-") as copy:
            for f in glob.glob(os.path.join(a.trace, "dumpi*")):
                shutil.copy(f, copy)
            command = [sys.executable, os.path.abspath(__file__), copy, "--network", a.network, "--simulator", "sstmac",
                       "--build", a.build, "--root", ROOT, *[x for s in a.set for x in ("--set", s)]]
            done = subprocess.run(command, capture_output=True, text=True,
                                  env=dict(os.environ, AMP_BENCH_NIC_BUFFER=str(buffer)))
            out = simulate.output_path(copy, network, "sstmac")
            if done.returncode == 0 and os.path.isfile(out):
                result = results.read(out)
                queue = result["simulated_network"]["injection_queue"]
                print(f"  buffer {buffer:>8} B: {result['predicted_seconds'] * 1e3:.3f} ms ({queue} NIC queue)")
            elif "deadlock" in done.stderr:
                print(f"  buffer {buffer:>8} B: deadlock ({done.stderr.strip().splitlines()[-1]})")
            else:
                sys.exit(f"nic_buffer: {' '.join(command)} exited {done.returncode}: {done.stderr.strip()[-400:]}")


if __name__ == "__main__":
    main()
