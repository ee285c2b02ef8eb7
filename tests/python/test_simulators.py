# SPDX-License-Identifier: BSD-3-Clause
"""One interface for every simulator (tools/amp_tools/simulators): the registry is the one list of them (the
command line, studies and the simulation schema read it), no module outside simulators/ branches on a
simulator's name, a serial simulator refuses --sim-ranks above 1 in one line, and CODES' translation of a
network file (its torus and dragonfly-dally configurations, the global links' wiring, its rank placement,
its torus routes) is the machine of the file."""
import json
import os
import re
import struct
import subprocess

import pytest

import amp_tools
from amp_tools import networks
from amp_tools import simulators
from amp_tools import study_slurm
from amp_tools.simulators import codes_figures, codes_machine
from amp_tools.study import Study, StudyError

PACKAGE = os.path.join(amp_tools.REPOSITORY, "tools", "amp_tools")
MODULE_INTERFACE = ("NAME", "TITLE", "ROUTING", "PARALLEL", "unavailable", "refusal", "network_memory",
                    "BYTES_PER_ACTION", "notes", "run")


def test_every_simulator_module_has_the_interface():
    for name, module in simulators.SIMULATORS.items():
        missing = [part for part in MODULE_INTERFACE if not hasattr(module, part)]
        assert not missing, f"simulators/{name}: lacks {missing}"
        assert module.NAME == name


def test_the_simulation_schema_names_the_registry_simulators():
    with open(os.path.join(amp_tools.REPOSITORY, "docs", "schema", "simulation.schema.json")) as f:
        schema = json.load(f)
    assert schema["properties"]["simulator"]["enum"] == list(simulators.NAMES)


def test_no_module_outside_simulators_branches_on_a_simulator_name():
    names = "|".join(simulators.NAMES)
    branch = re.compile(rf"""(==|!=|\bin)\s*\(?["']({names})["']|["']({names})["']\s*(==|!=|\bin\b)""")
    found = []
    for entry in sorted(os.listdir(PACKAGE)):
        if entry.endswith(".py"):
            with open(os.path.join(PACKAGE, entry)) as f:
                found += [f"{entry}:{n}: {line.strip()}" for n, line in enumerate(f, 1) if branch.search(line)]
    assert not found, "a simulator-name branch outside tools/amp_tools/simulators/:\n" + "\n".join(found)


def test_a_serial_simulator_refuses_more_simulator_ranks_in_one_line(network_file):
    torus = networks.load(network_file("torus-4x4x4"))
    assert [name for name, module in simulators.SIMULATORS.items() if module.PARALLEL] == ["codes"]
    for name, module in simulators.SIMULATORS.items():
        problem = simulators.refusal(torus, name, sim_ranks=2)
        if module.PARALLEL:
            assert problem is None, problem
        else:
            assert "--sim-ranks must be 1, not 2" in problem and "\n" not in problem
            assert simulators.refusal(torus, name, sim_ranks=1) is None


def test_the_memory_check_counts_the_trace_only_where_the_simulator_holds_it(network_file):
    """CTH's seed-deck SVAF at 1024 ranks (53 million actions) on the XT6 with 16 GiB free: SST-macro, which
    reads the trace as it replays (172 MB resident measured), runs it; SimGrid and CODES, which hold it, not."""
    xt6 = networks.load(network_file("xt6-seastar"))
    free = 16 << 30
    assert simulators.check_fits(xt6, "sstmac", 1024, actions=53_000_000, memory=free) is None
    for name in ("simgrid", "codes"):
        problem = simulators.check_fits(xt6, name, 1024, actions=53_000_000, memory=free)
        assert problem and "GiB" in problem and "\n" not in problem, problem
        assert simulators.check_fits(xt6, name, 1024, actions=1_000_000, memory=free) is None


def test_sstmacs_note_spans_the_measured_costs_and_names_a_timeout_for_the_slowest(network_file):
    """The routing study's 4096-rank step at four per NIC (32.1 GB, 512-byte packets on cascade-dragonfly) took 22
    minutes: the note's range holds it, and a --timeout below its top is named."""
    from amp_tools.simulators import sstmac
    dragonfly = networks.load(network_file("cascade-dragonfly"))
    note, = sstmac.notes(dragonfly, {"bytes": 32.1e9}, 7200)
    assert "62.7 million packets of 512 bytes" in note and "expect 1-28 minutes, or more" in note, note
    assert "--timeout" not in note
    note, = sstmac.notes(dragonfly, {"bytes": 32.1e9}, 1200)
    assert note.endswith("give --timeout 2539 to be safe"), note
    assert sstmac.notes(dragonfly, {"bytes": 1e9}, 1800) == []


def flaky_replay(folder, aborts, failure):
    """A stand-in for model-net-mpi-replay's one fault that no input provokes on purpose: its first `aborts`
    runs print `failure` and exit 1, the next prints a prediction (the runs counted in folder/runs)."""
    script = folder / "replay.sh"
    script.write_text(f"""#!/bin/sh
n=$(($(cat {folder}/runs 2>/dev/null || echo 0) + 1)); echo $n > {folder}/runs
if [ $n -le {aborts} ]; then echo 'node: 1: error: /r/ross/core/avl_tree.c:276: '; echo '{failure}' >&2; exit 1; fi
echo 'max runtime 5000.0 ns'
""")
    script.chmod(0o755)
    run_dir = folder / "run"
    run_dir.mkdir()
    return [str(script)], str(run_dir), str(folder / "lp-io")


@pytest.mark.parametrize("aborts", [1, 2])
def test_codes_replays_again_where_ross_optimistic_engine_aborts_in_its_tree(tmp_path, capsys, aborts):
    from amp_tools.simulators import codes
    command, run_dir, lp_io = flaky_replay(tmp_path, aborts, "We never look for non-existent events!")
    code, stdout, _, _ = codes.replayed(command, run_dir, lp_io, 60)
    assert code == 0 and codes.prediction(code, stdout, []) == 5e-6
    notes = capsys.readouterr().err.splitlines()
    assert [re.search(r"try (\d) of 3\)$", n).group(1) for n in notes] == [str(t + 2) for t in range(aborts)], notes
    assert (tmp_path / "runs").read_text().strip() == str(aborts + 1)


def test_codes_stops_after_three_aborts_and_never_retries_another_failure(tmp_path):
    from amp_tools.simulators import codes
    from amp_tools.simulate_errors import SimulatorError
    command, run_dir, lp_io = flaky_replay(tmp_path, 3, "We never look for non-existent events!")
    with pytest.raises(SimulatorError, match=r"on each of 3 tries: give --sim-ranks 1 "):
        codes.replayed(command, run_dir, lp_io, 60)
    other = tmp_path / "other"
    other.mkdir()
    command, run_dir, lp_io = flaky_replay(other, 1, "out of memory")
    # the same stand-in failing in another file of ROSS: a failure of another kind, not tried again
    (other / "replay.sh").write_text((other / "replay.sh").read_text().replace("avl_tree.c", "tw-eventq.c"))
    code, stdout, tail, _ = codes.replayed(command, run_dir, lp_io, 60)
    assert code == 1 and (other / "runs").read_text().strip() == "1"
    with pytest.raises(SimulatorError, match=r"failed \(exit 1\): node: 1: error: /r/ross/core/tw-eventq.c:276:"):
        codes.prediction(code, stdout, tail)


def test_codes_refuses_what_its_models_cannot_express(network_file):
    fat_tree = networks.load(network_file("fattree-2level-1024"))
    assert "codes has no fattree model in AMP (use simgrid)" in simulators.refusal(fat_tree, "codes")
    uneven = networks.load(network_file("torus-4x4x4"), ["dimension_bandwidth=[10e9, 10e9, 5e9]"])
    assert "dimension_bandwidth differs" in simulators.refusal(uneven, "codes")
    tiny = networks.load(network_file("torus-4x4x4"), ["packet_size=256"])  # 25.6 ns a packet, below 50.75 ns
    assert "a packet of 256 bytes (at most 512) at link_bandwidth must take longer" in simulators.refusal(tiny, "codes")
    fast = networks.load(network_file("torus-4x4x4"), ["link_bandwidth=20e9"])  # 512 B in 25.6 ns
    assert "holds every packet 50.75 ns on every link" in simulators.refusal(fast, "codes")
    odd = networks.load(network_file("dragonfly-1024"), ["global_links_per_pair=3"])  # 21 links, 32 routers
    assert "must be a multiple of routers_per_group (32)" in simulators.refusal(odd, "codes")
    valiant = networks.load(network_file("torus-4x4x4"), ["routing=valiant"])
    assert "offers routing minimal on a torus" in simulators.refusal(valiant, "codes")


def test_every_shipped_torus_and_dragonfly_file_is_expressed_in_codes(network_file):
    folder = os.path.join(amp_tools.REPOSITORY, "inputs", "networks")
    for entry in sorted(os.listdir(folder)):
        network = networks.load(os.path.join(folder, entry))
        if network.topology in ("torus", "dragonfly"):
            assert simulators.refusal(network, "codes") is None, entry


def test_codes_torus_packets_cross_a_link_at_the_files_bandwidth(network_file):
    seastar = networks.load(network_file("xt6-seastar"))
    p = codes_machine.params(seastar, "")
    # the file's 4096 B packets capped at 512 (CODES' torus holds a NIC's first packet 10 ns a byte): 128 ns at
    # 4.0 GB/s, of which CODES spends 50.75 ns on its own, so it is given the bandwidth of 77.25 ns
    assert p["chunk_size"] == p["packet_size"] == 512
    assert float(p["link_bandwidth"]) * codes_machine.GIB == pytest.approx(512 / 77.25e-9, rel=1e-8)
    assert p["dim_length"] == "4,4,4" and p["self_msg_overhead"] == "-200"  # 3.3 us less its MPI layer's 3.5 us
    assert codes_machine.lp_groups(seastar) == {"repetitions": 64, "nw-lp": 16, "modelnet_torus": 1}


def test_codes_dragonfly_is_the_files_groups_routers_and_latencies(network_file):
    cascade = networks.load(network_file("cascade-dragonfly"))
    p = codes_machine.params(cascade, "")
    assert (p["num_groups"], p["num_routers"], p["num_cns_per_router"], p["num_global_channels"]) == (3, 96, 4, 4)
    assert p["local_delay"] == p["global_delay"] == p["cn_delay"] == "110"  # 60 ns of link, 50 ns of router
    assert p["router_delay"] == "0" and p["packet_size"] == 512
    assert float(p["local_bandwidth"]) * codes_machine.GIB == pytest.approx(10e9)
    assert codes_machine.lp_groups(cascade)["repetitions"] == 288


@pytest.mark.parametrize("name", ["dragonfly-1024", "cascade-dragonfly", "trinity-haswell"])
def test_codes_global_links_give_every_pair_of_groups_k_links_and_every_router_the_same(name, network_file,
                                                                                         tmp_path):
    network = networks.load(network_file(name))
    s = network.shape
    a, g, k = s["routers_per_group"], s["groups"], s["global_links_per_pair"]
    links = codes_machine.global_links(network)
    per_pair, per_router = {}, {}
    for src, dst in links:
        assert src // a != dst // a
        per_pair[(src // a, dst // a)] = per_pair.get((src // a, dst // a), 0) + 1
        per_router[src] = per_router.get(src, 0) + 1
    assert set(per_pair.values()) == {k} and len(per_pair) == g * (g - 1)
    assert set(per_router.values()) == {codes_machine.global_links_per_router(network)}
    assert len(per_router) == a * g
    assert sorted(links) == sorted((dst, src) for src, dst in links)  # each link both ways
    codes_machine.write(network, str(tmp_path))
    inter = (tmp_path / codes_machine.INTER).read_bytes()
    assert list(struct.iter_unpack("2i", inter)) == links
    assert len((tmp_path / codes_machine.INTRA).read_bytes()) == a * (a - 1) * 12


def test_codes_is_given_each_rank_on_its_node_as_the_other_simulators_place_it(network_file):
    trinity = networks.load(network_file("trinity-haswell"))  # 4 nodes to a router, 32 ranks to a node
    lps = [codes_machine.lp_of_rank(trinity, r) for r in range(2 * 128)]
    assert sorted(lps) == list(range(256))  # every nw-lp of the first two routers once
    per_router, nodes = 128, 4
    # CODES' GROUP_MODULO mapping puts the j-th nw-lp of a router's repetition on its node j mod 4
    assert all((lp // per_router) * nodes + (lp % per_router) % nodes == r // 32 for r, lp in enumerate(lps))
    assert codes_machine.allocation(trinity, 3) == f"{lps[0]} {lps[1]} {lps[2]}\n"
    torus = networks.load(network_file("xt6-seastar"))
    assert [codes_machine.lp_of_rank(torus, r) for r in range(32)] == list(range(32))


def test_codes_torus_routes_in_dimension_order_the_shorter_way():
    dims = [4, 4, 4]
    assert codes_figures.torus_route(0, 3, dims) == [(0, 0, -1)]          # 0 -> 3 the short way, through the wrap
    assert codes_figures.torus_route(0, 2, dims) == [(0, 0, 1), (1, 0, 1)]  # half the ring: the plus way from 0
    assert codes_figures.torus_route(2, 0, dims) == [(2, 0, -1), (1, 0, -1)]
    assert [d for _, d, _ in codes_figures.torus_route(0, 1 + 4 + 16, dims)] == [0, 1, 2]


STUDY = 'name = "s"\nproxies = ["ghost"]\nranks = [2]\ntrace = true\n[simulate]\nnetworks = ["{network}"]\n'


def test_a_study_gives_a_parallel_simulator_its_sim_ranks_and_slurm_runs_them_as_srun_steps(study_file, repo,
                                                                                              monkeypatch):
    monkeypatch.setenv("AMP_CODES", "/bin/true")  # a study checks that the simulator's executable exists
    torus = os.path.join(repo, "inputs", "networks", "torus-4x4x4.toml")
    study = Study(study_file(STUDY.format(network=torus) + 'simulators = ["simgrid", "codes"]\nsim_ranks = 4\n'),
                  repo)
    plan = study.simulation
    assert (plan.simulator_ranks("codes"), plan.simulator_ranks("simgrid")) == (4, 1)
    runs = study.runs("/b")
    opts = type("Options", (), {"build": "/b"})()
    script = study_slurm.slurm_script(study, runs, "/f", opts)
    steps = [line for line in script.splitlines() if "amp_tools.simulate" in line]
    assert len(steps) == len([r for r in runs if study.traced(r)]) > 0
    assert all("--simulator codes --sim-ranks 4 --mpiexec srun --timeout 1800" in line for line in steps)
    assert subprocess.run(["bash", "-n"], input=script, text=True).returncode == 0
    with pytest.raises(StudyError, match="'sim_ranks' is the simulator ranks of a parallel simulator's replays"):
        Study(study_file(STUDY.format(network=torus) + 'simulators = ["simgrid"]\nsim_ranks = 2\n', "two.toml"),
              repo)



def test_a_study_gives_its_replays_the_time_it_names_and_refuses_a_bad_one(study_file, repo, monkeypatch):
    monkeypatch.setenv("AMP_CODES", "/bin/true")  # a study checks that the simulator's executable exists
    torus = os.path.join(repo, "inputs", "networks", "torus-4x4x4.toml")
    codes = STUDY.format(network=torus) + 'simulators = ["codes"]\n'
    study = Study(study_file(codes + "timeout_seconds = 7200\n"), repo)
    assert study.simulation.timeout_seconds == 7200
    script = study_slurm.slurm_script(study, study.runs("/b"), "/f", type("Options", (), {"build": "/b"})())
    steps = [line for line in script.splitlines() if "amp_tools.simulate" in line]
    assert steps and all("--timeout 7200 " in line for line in steps)
    assert Study(study_file(codes, "plain.toml"), repo).simulation.timeout_seconds == 1800
    for bad in ("0", "1.5", '"long"', "2000000"):
        with pytest.raises(StudyError, match="'timeout_seconds' must be a positive integer of at most 1000000"):
            Study(study_file(codes + f"timeout_seconds = {bad}\n", "bad.toml"), repo)
