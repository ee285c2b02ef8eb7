# SPDX-License-Identifier: BSD-3-Clause
"""The calibration of a seed deck's sweeps_per_exchange (amp_tools.calibrate_share) without running a study:
the solve step against a step whose rest is known, the declared table's checks, and the study it writes,
as the study reader expands it (one point per value, the declared network, simulator and ranks)."""
import pytest

from amp_tools import calibrate_share
from amp_tools.study import Study, StudyError

TABLE = ('[ghost]\nfigure = "a figure"\ntarget_compute_percent = 52.2\ndeck = "inputs/ghost/quick.toml"\n'
         'strategy = "bspma"\nnetwork = "inputs/networks/torus-4x4x4.toml"\nsimulator = "simgrid"\nranks = 64\n'
         'steps = 3\nbracket = [1.0, 0.1]\ntolerance_points = 1.0\nmax_rounds = 3\n')


def share_of(compute, rest):
    return lambda s: s * compute / (s * compute + rest(s))


@pytest.mark.parametrize("rest", [lambda s: 0.1, lambda s: 0.05 + 0.02 * s])
def test_solve_meets_the_target_when_the_rest_is_linear_in_the_share(rest):
    """q(s) = s (1/share - 1) is the rest over the compute at 1: linear in s, one solve meets the target."""
    share = share_of(1.0, rest)
    value = calibrate_share.solve({1.0: share(1.0), 0.1: share(0.1)}, 0.522)
    assert share(value) == pytest.approx(0.522, abs=1e-12)


def test_solve_uses_the_two_values_nearest_the_target():
    share = share_of(1.0, lambda s: 0.1 + 0.3 * (s - 0.1) ** 2)  # not linear: the nearest pair matters
    points = {s: share(s) for s in (1.0, 0.1, 0.12)}
    value = calibrate_share.solve(points, 0.522)
    assert abs(share(value) - 0.522) < abs(share(calibrate_share.solve({1.0: share(1.0), 0.1: share(0.1)}, 0.522))
                                           - 0.522)


def test_the_declared_table_is_checked(tmp_path):
    path = tmp_path / "calibration.toml"
    path.write_text(TABLE)
    assert calibrate_share.declaration(str(path), "ghost")["ranks"] == 64
    with pytest.raises(calibrate_share.CalibrationError, match=r"no \[sage\] table"):
        calibrate_share.declaration(str(path), "sage")
    for broken, message in [("ranks = 64", 'ranks = "64"'), ("bracket = [1.0, 0.1]", "bracket = [1.0]"),
                            ("target_compute_percent = 52.2", "target_compute_percent = 120"),
                            ("steps = 3", "steps = 3\nstep = 4")]:
        path.write_text(TABLE.replace(broken, message))
        with pytest.raises(calibrate_share.CalibrationError):
            calibrate_share.declaration(str(path), "ghost")


def test_the_study_of_a_round_has_one_point_per_value(tmp_path, repo):
    path = tmp_path / "calibration.toml"
    path.write_text(TABLE)
    table = calibrate_share.declaration(str(path), "ghost")
    study_file = tmp_path / "round.toml"
    study_file.write_text(calibrate_share.study_text("ghost", table, [1.0, 0.1]))
    study = Study(str(study_file), repo)
    runs = study.runs("/b")
    assert [r["flags"] for r in runs] == ["--num_tsteps 3 --sweeps_per_exchange 1.0",
                                          "--num_tsteps 3 --sweeps_per_exchange 0.1"]
    assert study.simulation.synthesize_ranks == [64] and study.simulation.simulators == ["simgrid"]
    assert study.simulation.steady_state and study.simulation.given_compute("ghost") is None
    study_file.write_text(calibrate_share.study_text("ghost", table, [0.0815], 0.0181))
    assert Study(str(study_file), repo).simulation.given_compute("ghost") == 0.0181


def test_a_declared_model_is_given_to_the_first_round_too(tmp_path, repo, monkeypatch):
    """compute_model_seconds in the table: every round's study is given it, the first included."""
    path = tmp_path / "calibration.toml"
    path.write_text(TABLE + "compute_model_seconds = 7.05e-08\n")
    written = []

    def fake_study(root, study_path, proxy, build=None):  # records what each round would run, runs nothing
        with open(study_path) as f:
            written.append(f.read())
        raise calibrate_share.CalibrationError("stop after the first round")
    monkeypatch.setattr(calibrate_share, "run_study", fake_study)
    with pytest.raises(calibrate_share.CalibrationError, match="stop"):
        calibrate_share.calibrate(str(path), "ghost", str(tmp_path))
    assert "compute_seconds = 7.05e-08" in written[0] and "sweeps_per_exchange 0.1" in written[0]
    path.write_text(TABLE + "compute_model_seconds = -1\n")
    with pytest.raises(calibrate_share.CalibrationError, match="compute_model_seconds"):
        calibrate_share.declaration(str(path), "ghost")


def test_a_share_the_rest_caps_below_the_target_is_no_value():
    """xNOBEL without rebalancing: 12.2 % at 0.04, 20.8 % at 0.1, 23.2 % at 0.483 (its ranks wait for the most
    loaded one): no share reaches 33.3 %, and the solve says so instead of extrapolating a negative share."""
    points = {0.04: 0.122, 0.1: 0.2084, 0.483: 0.2319}
    assert calibrate_share.solve(points, 0.333) is None
    assert calibrate_share.solve({1.0: 0.95, 0.1: 0.60}, 0.522) is not None


def test_a_study_takes_a_proxys_compute_from_its_calibration_record_scaled_to_the_node(study_file, repo):
    """compute_seconds naming the committed record: its model (the XT5 node's), times STREAM per core there over
    the study's node (XT6: 3.34 GB/s against the XT5's 1.725), and the model's source said in one line."""
    record = calibrate_share.results.load(f"{repo}/docs/validation/calibration-ghost.json")
    text = ('name = "s"\nproxies = ["ghost"]\nranks = [2]\n[simulate]\nsimulators = ["simgrid"]\n'
            'networks = ["inputs/networks/xt6-seastar.toml"]\nsynthesize_ranks = [256]\n'
            'compute_seconds = { ghost = "docs/validation/calibration-ghost.json" }\n')
    plan = Study(study_file(text), repo).simulation
    assert plan.given_compute("ghost") == pytest.approx(record["compute_model_seconds"] * 1.725 / 3.34, rel=1e-12)
    assert "xt5-seastar" in plan.compute_sources["ghost"]
    on_xt5 = Study(study_file(text.replace("xt6-seastar", "xt5-seastar"), "xt5.toml"), repo).simulation
    assert on_xt5.given_compute("ghost") == record["compute_model_seconds"]


@pytest.mark.parametrize("value, words", [("docs/validation/calibration-sage.json", "record of 'sage', not of 'ghost'"),
                                          ("docs/validation/no-such.json", "no such file"),
                                          ("inputs/networks/xt5-seastar.toml", "not JSON"),
                                          ("docs/validation/cielo-profile.json", "not a calibration record")])
def test_a_compute_record_that_is_not_the_proxys_is_refused_in_one_line(study_file, repo, value, words):
    text = ('name = "s"\nproxies = ["ghost"]\nranks = [2]\n[simulate]\nsimulators = ["simgrid"]\n'
            f'networks = ["inputs/networks/xt6-seastar.toml"]\ncompute_seconds = {{ ghost = "{value}" }}\n')
    with pytest.raises(StudyError, match=words) as error:
        Study(study_file(text), repo)
    assert "\n" not in str(error.value) and "compute_seconds" in str(error.value)


def test_a_compute_record_needs_the_studys_node(study_file, repo):
    """A network without stream_per_core gives no node to scale the record's model to: refused, not unscaled."""
    text = ('name = "s"\nproxies = ["ghost"]\nranks = [2]\n[simulate]\nsimulators = ["simgrid"]\n'
            'networks = ["inputs/networks/torus-4x4x4.toml"]\n'
            'compute_seconds = { ghost = "docs/validation/calibration-ghost.json" }\n')
    with pytest.raises(StudyError, match="stream_per_core"):
        Study(study_file(text), repo)
