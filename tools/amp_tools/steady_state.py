# SPDX-License-Identifier: BSD-3-Clause
"""A synthesized point's steady state and its set-up apart, from two simulations of it on
the same network variant and simulator: the point's K-step trace (K >= 3) and its one-step companion
(study [simulate] steady_state = true synthesizes it into the study folder's first-step/). Steps 2..K are
the same work, so their simulated time is the difference of the two runs:

    per step  = (T_K - T_1) / (K - 1)          set-up = T_1 - per step

set-up being what the first step costs beyond a steady one: communicator and window creation, the first
exchange's handshakes, and what comes before the first step. The steady profile is the same difference
per rank and kind (compute, point-to-point, collective), over each rank's own steady time, mean over
ranks (simulated_profile.profile). N steps of the point then take set-up + N x per step: simulating K of
N identical steps is what makes CTH's 100-step seed deck affordable (docs/PERFORMANCE.md).

Usage: python3 -m amp_tools.steady_state STUDY_FOLDER
       prints each point's per-step time, set-up and steady profile per network variant and simulator.
"""
import glob
import math
import os
import sys

from amp_tools import command_line
from amp_tools import results
from amp_tools import simulated_profile

FIRST_STEP_FOLDER = "first-step"  # beside a study's runs: the one-step companions of its synthesized points
MIN_STEPS = 3  # the "at least 3 simulated steps": 2 steady steps to difference over


class NotSteady(ValueError):
    """The two simulations cannot be differenced: one line."""


def companion(simulation_path):
    """The one-step companion's simulation of the same variant and simulator: FOLDER/first-step/<id>.trace/
    <the same file name>, for FOLDER/<id>.trace/simulation-*.json."""
    trace = os.path.dirname(simulation_path)
    existing_trace, existing_file = os.path.basename(trace), os.path.basename(simulation_path)
    return os.path.join(os.path.dirname(trace), FIRST_STEP_FOLDER, existing_trace, existing_file)


def number(sim, key, which):
    """sim[key], a finite number (not a bool), else NotSteady naming the simulation and the key."""
    value = sim.get(key) if isinstance(sim, dict) else None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise NotSteady(f"the {which}'s {key} is not a number ({value!r})")
    return value


def per_rank_lists(sim, ranks, which):
    """The profile's per_rank lists of a simulation, each of `ranks` numbers, else NotSteady; None without a
    profile."""
    p = sim.get("profile")
    if not p or not isinstance(p, dict) or not p.get("per_rank"):
        return None
    if not isinstance(p["per_rank"], dict):
        raise NotSteady(f"the {which}'s profile has no per_rank table")
    lists = {kind: p["per_rank"].get(kind) for kind in simulated_profile.KINDS}
    lists["finish"] = p.get("per_rank_finish")
    for kind, values in lists.items():
        if (not isinstance(values, list) or len(values) != ranks or
                not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in values)):
            raise NotSteady(f"the {which}'s profile has no list of {ranks} numbers for {kind}")
    return lists


def steady(whole, first, steps):
    """{steps, per_step_seconds, setup_seconds, messages_per_step, bytes_per_step (all ranks' point-to-point
    sends), profile} from the K-step simulation `whole`, its one-step
    companion `first` (simulation JSON dicts) and K. Raises NotSteady when they do not pair up."""
    if not isinstance(whole, dict) or not isinstance(first, dict):
        raise NotSteady("a simulation of the pair is not a JSON table")
    if steps < MIN_STEPS:
        raise NotSteady(f"a steady state needs at least {MIN_STEPS} simulated steps (this point has {steps})")
    for key in ("ranks", "simulator", "network", "network_key"):
        if whole.get(key) != first.get(key):
            raise NotSteady(f"the one-step companion differs in {key} ({first.get(key)!r}, not {whole.get(key)!r})")
    # SST-macro replays with its FIFO NIC queue where round robin stopped short (simulators/sstmac.py): a pair
    # replayed with two queues differences two models (CTH's SVAF at 1024 ranks: a set-up of +307 ms)
    queues = [(sim.get("simulated_network") or {}).get("injection_queue") for sim in (whole, first)]
    if queues[0] != queues[1]:
        raise NotSteady(f"the one-step companion was replayed with SST-macro's {queues[1]} NIC queue, the "
                        f"{steps}-step run with its {queues[0]} queue: two models, not one")
    t_k, t_1 = number(whole, "predicted_seconds", f"{steps}-step run"), number(first, "predicted_seconds", "companion")
    per_step = (t_k - t_1) / (steps - 1)
    if not per_step > 0:  # the companion as slow as the K steps or slower: no steady step to report
        raise NotSteady(f"the one-step companion ({t_1:.6g} s) is not faster than the {steps}-step run "
                        f"({t_k:.6g} s): no positive steady step")
    out = {"steps": steps, "per_step_seconds": per_step, "setup_seconds": t_1 - per_step,
           "messages_per_step": (number(whole, "messages", f"{steps}-step run") -
                                 number(first, "messages", "companion")) / (steps - 1),
           "bytes_per_step": (number(whole, "bytes", f"{steps}-step run") -
                              number(first, "bytes", "companion")) / (steps - 1), "profile": None}
    ranks = whole.get("ranks")
    a, b = per_rank_lists(whole, ranks, f"{steps}-step run"), per_rank_lists(first, ranks, "companion")
    if a and b:
        kinds = simulated_profile.KINDS
        per_rank = [{kind: (a[kind][r] - b[kind][r]) / (steps - 1) for kind in kinds} for r in range(ranks)]
        finish = [(x - y) / (steps - 1) for x, y in zip(a["finish"], b["finish"])]
        out["profile"] = simulated_profile.profile(per_rank, finish)
    return out


def of_simulation(path, sim, steps):
    """The steady state of the simulation at `path` (its JSON `sim`, its point's `steps`), or None when it
    has no one-step companion; NotSteady when the companion does not pair with it."""
    other = companion(path)
    if not os.path.isfile(other):
        return None
    return steady(sim, results.load(other), steps)


def time_of(sim):
    """What a figure compares of a simulation (report_simulation.load's rows): its steady seconds per step
    where its point has a one-step companion, else its predicted run."""
    state = sim.get("steady")
    return state["per_step_seconds"] if state else sim["predicted_seconds"]


def profile_of(sim):
    """Its steady profile where its point has a one-step companion (and a profile), else its whole run's."""
    state = sim.get("steady")
    return state["profile"] if state and state["profile"] else sim.get("profile")


def main(argv):
    parser = command_line.Parser("steady_state", __doc__.split("\n\n")[0])
    parser.add_argument("folder", help="a study folder (runs/<name>-<stamp>)")
    folder = parser.parse_args(argv).folder
    if not os.path.isdir(folder):
        command_line.refuse("steady_state", f"'{folder}' is not a folder (give a study folder, runs/<name>-<stamp>)")
    found = 0
    for path in sorted(glob.glob(os.path.join(folder, "*.trace", "simulation-*.json"))):
        trace = os.path.dirname(path)
        point = os.path.basename(trace)[:-len(".trace")]
        try:
            run = results.load(trace[:-len(".trace")] + ".json")
            sim = results.load(path)
            steps = (run["config"]["num_tsteps"] if isinstance(run, dict) and isinstance(run.get("config"), dict)
                     else None)
            if isinstance(steps, bool) or not isinstance(steps, int):
                raise NotSteady(f"{trace[:-len('.trace')]}.json gives no whole number of steps (config.num_tsteps)")
            state = of_simulation(path, sim, steps)
        except (OSError, ValueError) as e:
            print(f"{point}: {e}")
            continue
        if state is None:
            continue
        found += 1
        p = state["profile"]
        shares = (" ".join(f"{kind} {100 * p[kind]:.1f} %" for kind in simulated_profile.KINDS) if p else "no profile")
        print(f"{point} {sim['network']} {sim['simulator']}: {state['per_step_seconds']:.6g} s per step over steps 2-"
              f"{state['steps']}, set-up {state['setup_seconds']:.6g} s; steady profile: {shares}")
    if not found:
        print(f"steady_state: no point of {folder} has a one-step companion ({FIRST_STEP_FOLDER}/; [simulate] "
              "steady_state = true makes them)")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
