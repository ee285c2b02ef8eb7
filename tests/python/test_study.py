# SPDX-License-Identifier: BSD-3-Clause
"""A study file's expansion into runs (amp_tools.study), without running anything: the axes, the run ids
and arguments, the rank count from the cores, which runs are traced, and the one-line refusals."""
import os

import pytest

from amp_tools.study import Study, StudyError

BASE = 'name = "s"\nproxies = ["ghost"]\nranks = [1, 2]\n'


def test_every_combination_of_the_axes_is_one_run(study_file, repo):
    study = Study(study_file(BASE + 'strategies = ["bspma", "svcp"]\ntransports = ["isend", "rma"]\n'
                             'repetitions = 2\n'), repo)
    runs = study.runs("/b")
    assert len(runs) == 2 * 2 * 2 * 2
    assert len({r["id"] for r in runs}) == len(runs)
    assert runs[0]["id"] == "ghost-bspma-isend-np1-rep1"
    assert runs[-1]["id"] == "ghost-svcp-rma-np2-rep2"


def test_run_arguments_carry_deck_strategy_transport_and_flags(study_file, repo):
    study = Study(study_file(BASE + 'decks = ["inputs/ghost/quick.toml"]\nflags = ["--num_vars 3 --nx \'8\'"]\n'
                             'strategies = ["svaf"]\ntransports = ["persistent"]\n'), repo)
    run = study.runs("/b")[0]
    assert run["id"] == "ghost-quick-svaf-persistent-np1-rep1"
    assert run["args"] == ["/b/bin/amp-ghost", "--input", os.path.join(repo, "inputs/ghost/quick.toml"),
                           "--strategy", "svaf", "--transport", "persistent", "--num_vars", "3", "--nx", "8"]


def test_several_flags_entries_are_numbered_in_the_ids(study_file, repo):
    study = Study(study_file(BASE + 'flags = ["--num_vars 1", "--num_vars 2"]\n'), repo)
    assert [r["id"] for r in study.runs("/b")] == ["ghost-flags1-np1-rep1", "ghost-flags1-np2-rep1",
                                                   "ghost-flags2-np1-rep1", "ghost-flags2-np2-rep1"]


def test_decks_per_proxy(study_file, repo):
    study = Study(study_file('name = "s"\nproxies = ["ghost", "sage"]\nranks = [2]\n[decks]\n'
                             'ghost = ["inputs/ghost/cth.toml"]\nsage = ["inputs/sage/default.toml"]\n'), repo)
    assert [r["id"] for r in study.runs("/b")] == ["ghost-cth-np2-rep1", "sage-default-np2-rep1"]


def test_strategies_per_proxy(study_file, repo):
    """A [strategies] table gives each proxy its own; a proxy it leaves out runs its deck's."""
    text = ('name = "s"\nproxies = ["ghost", "sage", "nobel"]\nranks = [2]\n[strategies]\n'
            'ghost = ["bspma", "svaf"]\nsage = ["svcp"]\n')
    ids = [r["id"] for r in Study(study_file(text), repo).runs("/b")]
    assert ids == ["ghost-bspma-np2-rep1", "ghost-svaf-np2-rep1", "sage-svcp-np2-rep1", "nobel-np2-rep1"]
    with pytest.raises(StudyError, match=r"\[strategies\] names 'micro'"):
        Study(study_file(text + 'micro = ["bspma"]\n'), repo)


@pytest.mark.parametrize("cores, expected", [(1, [2]), (2, [2]), (8, [8])])
def test_ranks_cores_is_one_rank_per_core_at_least_two(study_file, repo, cores, expected):
    study = Study(study_file('name = "s"\nproxies = ["ghost"]\nranks = "cores"\n'), repo, cores=cores)
    assert study.ranks == expected


def test_a_rank_count_given_replaces_the_files(study_file, repo):
    study = Study(study_file(BASE), repo, cores=2, ranks=5)
    assert {r["ranks"] for r in study.runs("/b")} == {5}


def test_trace_list_traces_only_those_transports(study_file, repo):
    study = Study(study_file(BASE + 'transports = ["isend", "rma"]\ntrace = ["isend"]\n'), repo)
    traced = {r["transport"]: study.traced(r) for r in study.runs("/b")}
    assert traced == {"isend": True, "rma": False}
    everything = Study(study_file(BASE + 'transports = ["isend", "rma"]\ntrace = true\n', "all.toml"), repo)
    assert all(everything.traced(r) for r in everything.runs("/b"))


@pytest.mark.parametrize("extra, words", [
    ('colour = 1\n', "unknown key 'colour'"),
    ('trace = "yes"\n', "'trace' must be true, false or a list of transports"),
    ('strategies = ["bspma", "bspma"]\n', "gives 'bspma' twice"),
    ('strategies = ["bs pma"]\n', "is not a name"),
    ('repetitions = 0\n', "'repetitions' must be a positive integer"),
])
def test_bad_values_are_one_line_naming_the_key_and_its_line(study_file, repo, extra, words):
    path = study_file(BASE + extra)
    with pytest.raises(StudyError) as refused:
        Study(path, repo)
    message = str(refused.value)
    assert words in message and "\n" not in message
    assert message.startswith(f"{path} line 4: ")


def test_all_strategies_need_the_binary_to_list_them(study_file, repo, tmp_path):
    study = Study(study_file(BASE + 'strategies = "all"\n'), repo)
    with pytest.raises(StudyError, match=r"'strategies' = \"all\" asks amp-ghost for its list, and it is not built"):
        study.check_combinations(str(tmp_path))


def test_simulate_calibrates_a_missing_network_file_only_when_asked(study_file, repo, tmp_path):
    missing = tmp_path / "this-machine.toml"
    table = f'[simulate]\nnetworks = ["{missing}"]\n'
    study = Study(study_file(BASE + 'trace = true\n' + table + 'calibrate = true\n'), repo)
    assert study.simulation.to_calibrate == [str(missing)] and study.simulation.variants == []
    with pytest.raises(StudyError, match="no such network file"):
        Study(study_file(BASE + 'trace = true\n' + table, "plain.toml"), repo)


def test_predict_needs_its_baseline_among_the_studys_strategies(study_file, repo):
    predict = '[predict]\nstrategies = ["svaf"]\nnetworks = ["inputs/networks/torus-4x4x4.toml"]\n'
    with pytest.raises(StudyError, match="baseline strategy 'svaf' is not among the study's 'strategies'"):
        Study(study_file(BASE + 'strategies = ["bspma"]\n' + predict), repo)


def test_the_default_study_is_ghost_on_the_cth_deck_over_everything_listed(repo):
    study = Study(os.path.join(repo, "inputs", "studies", "default.toml"), repo, cores=2)
    assert study.proxies == ["ghost"]
    assert study.decks["ghost"] == [os.path.join(repo, "inputs", "ghost", "cth.toml")]
    assert (study.strategies, study.transports, study.ranks) == ("all", "all", [2])
    assert study.traced({"transport": "isend"}) and not study.traced({"transport": "rma"})
    assert study.table
    assert (study.prediction.ranks, study.prediction.strategies) == (1024, ["bspma", "svaf"])
    assert [os.path.basename(p) for p in study.prediction.network_files] == ["torus-16x16x4.toml",
                                                                             "dragonfly-1024.toml"]


def test_an_unknown_key_of_a_table_is_named_with_its_table(study_file, repo):
    with pytest.raises(StudyError, match=r"line 5: unknown key 'colour' in \[predict\] \(known: networks, ranks, "
                                         r"strategies\)"):
        Study(study_file(BASE + '[predict]\ncolour = 1\n'), repo)


def test_max_ranks_leaves_bigger_traces_to_the_other_simulators(study_file, repo):
    from amp_tools.study_simulation import too_many_ranks
    table = ('trace = true\n[simulate]\nnetworks = ["inputs/networks/torus-4x4x4.toml"]\n'
             'simulators = ["simgrid"]\nmax_ranks = { simgrid = 256 }\n')
    plan = Study(study_file(BASE + table), repo).simulation
    assert too_many_ranks(plan, "simgrid", 256) is None
    assert too_many_ranks(plan, "simgrid", 1024) == \
        "simgrid takes traces of up to 256 ranks in this study (max_ranks), not 1024"
    assert too_many_ranks(plan, "sstmac", 1 << 20) is None  # a simulator without a limit takes any


@pytest.mark.parametrize("limit, words", [
    ('{ sstmac = 256 }', "'max_ranks' names 'sstmac', which is not one of the study's simulators (simgrid)"),
    ('{ simgrid = 0 }', "'max_ranks' of simgrid must be a positive number of ranks (got 0)"),
    ('256', "'max_ranks' must be a table of simulators"),
])
def test_max_ranks_refuses_what_it_cannot_mean(study_file, repo, limit, words):
    table = ('trace = true\n[simulate]\nnetworks = ["inputs/networks/torus-4x4x4.toml"]\n'
             f'simulators = ["simgrid"]\nmax_ranks = {limit}\n')
    with pytest.raises(StudyError) as refused:
        Study(study_file(BASE + table), repo)
    assert words in str(refused.value) and "\n" not in str(refused.value)


def test_compute_model_shared_by_rank_counts_unless_strong_scaling(tmp_path):
    """One compute model for every rank count of a weak-scaling deck (the block per rank is the same);
    one per rank count where the deck or the flags scale strongly (the last --scaling wins)."""
    from amp_tools.study_compute_model import model_key

    weak, strong = tmp_path / "weak.toml", tmp_path / "strong.toml"
    weak.write_text('nx = 8\n')
    strong.write_text('scaling = "strong"\n')

    def key(proxy, deck, *flags, ranks=256):
        return model_key({"proxy": proxy, "deck": str(deck), "flags": " ".join(flags), "ranks": ranks,
                          "args": ["amp-" + proxy, "--input", str(deck), *flags]})

    assert key("ghost", weak) == key("ghost", weak, ranks=1024)
    assert key("ghost", weak).endswith("|any")
    assert key("sage", strong) != key("sage", strong, ranks=1024)
    assert key("ghost", weak, "--scaling", "strong").endswith("|256")
    assert key("ghost", strong, "--scaling=strong", "--scaling", "weak").endswith("|any")
    assert key("nobel", strong) == key("nobel", strong, ranks=1024)  # per block of a fixed size


def test_compute_model_shared_by_shares_of_sweeps(tmp_path):
    """The model is one variable's sweep: points that differ only in --sweeps_per_exchange (a calibration's
    rounds) share it, while any other flag still makes a model of its own."""
    from amp_tools.study_compute_model import model_key

    deck = tmp_path / "deck.toml"
    deck.write_text('nx = 8\n')

    def key(flags):
        return model_key({"proxy": "ghost", "deck": str(deck), "flags": flags, "ranks": 256,
                          "args": ["amp-ghost", "--input", str(deck), *flags.split()]})

    assert key("--num_tsteps 3 --sweeps_per_exchange 1.0") == key("--num_tsteps 3 --sweeps_per_exchange 0.1")
    assert key("--num_tsteps 3 --sweeps_per_exchange=0.5") == key("--num_tsteps 3")
    assert key("--num_tsteps 3 --sweeps_per_exchange 0.5") != key("--num_tsteps 3 --nx 9 --sweeps_per_exchange 0.5")


def test_compute_seconds_per_proxy(study_file, repo):
    """[simulate] compute_seconds as a table gives each listed proxy its model (a calibration's, say); a proxy it
    leaves out is measured; a proxy the study does not run, or a value that is no number of seconds, is refused."""
    text = ('name = "s"\nproxies = ["ghost", "sage"]\nranks = [2]\n[simulate]\n'
            'networks = ["inputs/networks/torus-4x4x4.toml"]\nsynthesize_ranks = [64]\n')
    plan = Study(study_file(text + 'compute_seconds = { ghost = 0.0107 }\n'), repo).simulation
    assert (plan.given_compute("ghost"), plan.given_compute("sage")) == (0.0107, None)
    assert Study(study_file(text + 'compute_seconds = 0.5\n'), repo).simulation.given_compute("sage") == 0.5
    with pytest.raises(StudyError, match=r"'compute_seconds' names proxy 'nobel'"):
        Study(study_file(text + 'compute_seconds = { nobel = 1e-3 }\n'), repo)
    with pytest.raises(StudyError, match=r"'compute_seconds' must be a number"):
        Study(study_file(text + 'compute_seconds = { ghost = "fast" }\n'), repo)


def test_a_model_is_measured_with_every_variable_swept(tmp_path):
    """The measuring synthesis sweeps every variable once, whatever share the flags or the deck give (a
    one-step run at 0.1 of nobel's 4 variables swept nothing and measured no model)."""
    from amp_tools.study_compute_model import measure_command

    run = {"proxy": "nobel", "ranks": 256, "args": ["amp-nobel", "--input", "deck.toml", "--num_tsteps", "20",
                                                    "--sweeps_per_exchange", "0.1"]}
    command = measure_command(run, str(tmp_path / "one"))
    assert command.count("--sweeps_per_exchange") == 1
    assert command[command.index("--sweeps_per_exchange") + 1] == "1"
    assert command[command.index("--num_tsteps") + 1] == "1" and "20" not in command
