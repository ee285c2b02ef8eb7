# SPDX-License-Identifier: BSD-3-Clause
"""The simulators AMP predicts with, by the name the user types (`--simulator NAME`, a study's
`simulators`): one module each, with the same small interface, which `./amp simulate`, studies, reports and
`--help` read from here. A module has
  NAME, TITLE            the name typed, the name shown in figures
  ROUTING                {topology: routings it offers}
  PARALLEL               whether it replays on more than one simulator rank (--sim-ranks N)
  unavailable()          "needs ..." when its executable is missing, else None
  refusal(network, where) one line naming a key of the network file it cannot express, else None
  network_memory(network) bytes it needs for the machine
  BYTES_PER_ACTION       bytes it holds per action of the trace (0 where it reads the trace as it replays)
  notes(network, summary, timeout) lines to print before a long replay
  run(job)               the replay of a replay.Job, as a replay.Outcome
Adding a simulator is one module here, its translation and its tests (docs/SIMULATING.md)."""
from amp_tools.simulators import codes, simgrid, sstmac

SIMULATORS = {module.NAME: module for module in (simgrid, sstmac, codes)}
DEFAULT = simgrid.NAME  # the simulator of a simulation or study that names none
NAMES = tuple(SIMULATORS)


def simulator(name):
    """The module of the simulator called `name` (one of NAMES)."""
    return SIMULATORS[name]


def title(name):
    """The simulator's name as figures show it (a name no module has is shown as it is)."""
    return SIMULATORS[name].TITLE if name in SIMULATORS else name


def refusal(network, name, sim_ranks=1):
    """One line naming the key the simulator `name` cannot express for this machine (or the simulator ranks it
    cannot use), or None."""
    module = SIMULATORS[name]
    where = f"{network.path}: {name}"
    routes = module.ROUTING.get(network.topology)
    if routes is None:
        other = [n for n, m in SIMULATORS.items() if network.topology in m.ROUTING]
        return f"{where} has no {network.topology} model in AMP (use {' or '.join(other)})"
    if network.routing not in routes:
        return f"{where} offers routing {', '.join(sorted(routes))} on a {network.topology}, not {network.routing!r}"
    if sim_ranks > 1 and not module.PARALLEL:
        parallel = [n for n, m in SIMULATORS.items() if m.PARALLEL]
        return (f"{where} replays on one core: --sim-ranks must be 1, not {sim_ranks} (the parallel one: "
                f"{' or '.join(parallel) or 'none'})")
    return module.refusal(network, where)


def memory_estimate(network, name, ranks, actions):
    """Bytes the simulator needs for this network and a trace of `ranks` ranks and `actions` actions: the
    machine's (its module's network_memory), 64 KiB a rank, and the actions it holds (its BYTES_PER_ACTION)."""
    module = SIMULATORS[name]
    return module.network_memory(network) + ranks * 64 * 1024 + actions * module.BYTES_PER_ACTION


def check_fits(network, name, ranks, actions=0, memory=None, sim_ranks=1):
    """One line when this network cannot run `ranks` ranks in the simulator `name`, else None."""
    problem = refusal(network, name, sim_ranks)
    if problem:
        return problem
    if ranks > network.hosts:
        return (f"{network.path}: the trace has {ranks} ranks, more than the network's {network.nodes} nodes x "
                f"{network.ranks_per_node} ranks per node = {network.hosts}")
    memory = memory if memory is not None else _available_memory()
    need = memory_estimate(network, name, ranks, actions)
    if memory and need > memory // 2:
        return (f"{network.path}: {name} would need about {need / 2**30:.1f} GiB for {network.nodes} nodes and "
                f"this trace, more than half of this machine's {memory / 2**30:.1f} GiB available")
    return None


def _available_memory():
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0
