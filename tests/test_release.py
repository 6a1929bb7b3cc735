"""Release readiness: metadata from one place, an sdist and a wheel that check and install.

The build test runs ``python -m build`` (which fetches the build backend from the
package index), ``twine check --strict`` and a ``pip install`` of the sdist into
a fresh virtual environment; it takes some seconds and is marked ``release``
(deselect it with ``-m "not release"``).
"""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
import sysconfig
from pathlib import Path
from typing import Any

import pytest

import canasta

ROOT = Path(__file__).resolve().parents[1]


def project() -> dict[str, Any]:
    """The [project] table of pyproject.toml (skips the test where TOML cannot be read)."""
    try:
        import tomllib  # standard library from Python 3.11
    except ModuleNotFoundError:  # pragma: no cover - Python 3.10
        tomllib = pytest.importorskip("tomli")
    table: dict[str, Any] = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"]
    return table


def run(*args: str | Path, cwd: Path, timeout: float = 300) -> str:
    """Run a command; fail the test with its output if it fails; return its stdout."""
    result = subprocess.run(
        [str(a) for a in args], cwd=cwd, capture_output=True, text=True, timeout=timeout,
        # without PYTHONPATH: a source tree on it would be imported instead of
        # the wheel the test installed
        env={**{k: v for k, v in os.environ.items() if k != "PYTHONPATH"},
             "PIP_DISABLE_PIP_VERSION_CHECK": "1"},
    )
    if result.returncode != 0:
        pytest.fail(f"{' '.join(map(str, args))} exited {result.returncode}:\n"
                    f"{result.stdout}\n{result.stderr}")
    return result.stdout


class TestMetadata:
    """pyproject.toml holds everything a release needs, once."""

    def test_version_from_one_place(self) -> None:
        """The version is written in pyproject.toml only, and the package reports it."""
        meta = project()
        assert canasta.__version__ == meta["version"]
        assert "version" not in meta.get("dynamic", [])
        source = (ROOT / "src" / "canasta" / "__init__.py").read_text(encoding="utf-8")
        assert meta["version"] not in source

    def test_license(self) -> None:
        """An MIT LICENSE file is declared and shipped."""
        meta = project()
        assert meta["license"] == "MIT"
        assert meta["license-files"] == ["LICENSE"]
        assert (ROOT / "LICENSE").read_text(encoding="utf-8").startswith("MIT License")

    def test_readme_and_classifiers(self) -> None:
        """The long description is the README; the classifiers say typed, MIT, Python 3."""
        meta = project()
        assert meta["readme"] == "README.md"
        classifiers = meta["classifiers"]
        for needed in ["Typing :: Typed", "License :: OSI Approved :: MIT License",
                       "Programming Language :: Python :: 3 :: Only"]:
            assert needed in classifiers
        assert (ROOT / "src" / "canasta" / "py.typed").is_file()

    def test_release_tools_in_dev_extra(self) -> None:
        """build and twine are development dependencies, not runtime ones."""
        meta = project()
        dev = " ".join(meta["optional-dependencies"]["dev"])
        assert "build" in dev and "twine" in dev
        assert not any(d.startswith(("build", "twine")) for d in meta["dependencies"])


def _venv_python(venv: Path) -> Path:
    return venv / ("Scripts" if os.name == "nt" else "bin") / "python"


@pytest.mark.release
class TestDistributions:
    """python -m build, twine check --strict, and installing the sdist."""

    def test_build_check_and_install(self, tmp_path: Path) -> None:
        """The sdist and wheel pass twine check --strict; the sdist installs and runs."""
        if importlib.util.find_spec("build") is None:
            pytest.skip("the 'build' package is not installed (pip install -e '.[dev]')")
        if importlib.util.find_spec("twine") is None:
            pytest.skip("the 'twine' package is not installed (pip install -e '.[dev]')")
        dist = tmp_path / "dist"
        run(sys.executable, "-m", "build", "--outdir", dist, ROOT, cwd=tmp_path)
        version = canasta.__version__
        sdist = dist / f"canasta-{version}.tar.gz"
        wheel = dist / f"canasta-{version}-py3-none-any.whl"
        assert sdist.is_file() and wheel.is_file(), sorted(p.name for p in dist.iterdir())
        out = run(sys.executable, "-m", "twine", "check", "--strict", sdist, wheel, cwd=tmp_path)
        assert out.count("PASSED") == 2

        # A fresh environment that borrows only the dependencies of this one: the
        # package itself must come from the sdist.
        venv = tmp_path / "venv"
        run(sys.executable, "-m", "venv", venv, cwd=tmp_path)
        python = _venv_python(venv)
        site = run(python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])",
                   cwd=tmp_path).strip()
        here = {sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]}
        (Path(site) / "canasta-test-deps.pth").write_text("\n".join(sorted(here)) + "\n")
        run(python, "-m", "pip", "install", "--no-deps", sdist, cwd=tmp_path)
        check = (
            "import canasta, pathlib, sys\n"
            "assert pathlib.Path(canasta.__file__).is_relative_to(sys.prefix), canasta.__file__\n"
            f"assert canasta.__version__ == {version!r}\n"
            f"assert canasta.variant_names() == {canasta.variant_names()!r}\n"
            "s = canasta.new_game(canasta.load_variant('hand-and-foot'), 1)\n"
            "assert canasta.from_json(canasta.to_json(s), canasta.GameState) == s\n"
            "print('ok')\n"
        )
        assert run(python, "-c", check, cwd=tmp_path).strip() == "ok"
        out = run(python, "-m", "canasta", "variants", cwd=tmp_path)
        assert out.split()[0] == canasta.variant_names()[0]


def _tool(name: str) -> dict[str, Any]:
    try:
        import tomllib
    except ModuleNotFoundError:  # pragma: no cover - Python 3.10
        tomllib = pytest.importorskip("tomli")
    table: dict[str, Any] = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["tool"][name]
    return table


def _workflow() -> dict[Any, Any]:
    import yaml

    data: dict[Any, Any] = yaml.safe_load(
        (ROOT / ".github" / "workflows" / "release.yml").read_text(encoding="utf-8")
    )
    return data


def _test_files(command: str) -> list[str]:
    return re.findall(r"tests/(test_\w+\.py)", command)


class TestCompiledWheels:
    """cibuildwheel's configuration and the release workflow agree with the package.

    GitHub Actions cannot run here: these read the two files and check what a
    mistake in them would break (a Python version without a compiled wheel, a
    build that forgot to compile, tests that do not exist, no trusted publishing).
    """

    def test_builds_every_supported_python(self) -> None:
        """The build selector names exactly the CPython versions of the classifiers."""
        minors = []
        for selector in _tool("cibuildwheel")["build"].split():
            match = re.fullmatch(r"cp3(\d+)-\*", selector)
            assert match, f"unexpected build selector {selector!r}"
            minors.append(int(match.group(1)))
        classified = sorted(
            int(c.rsplit(".", 1)[1]) for c in project()["classifiers"]
            if re.fullmatch(r"Programming Language :: Python :: 3\.\d+", c)
        )
        assert sorted(minors) == classified == list(range(10, 14))
        assert project()["requires-python"] == f">=3.{minors[0]}"

    def test_compiles_and_tests_the_compiled_engine(self) -> None:
        """CANASTA_COMPILE=1 is set, and the test command fails on a Python engine first."""
        cfg = _tool("cibuildwheel")
        assert cfg["environment"]["CANASTA_COMPILE"] == "1"
        first, *rest = cfg["test-command"]
        assert "COMPILED" in first and "sys.exit" in first
        files = [f for cmd in rest for f in _test_files(cmd)]
        assert "test_engine_rules.py" in files and "test_engine_random.py" in files
        for name in files:
            assert (ROOT / "tests" / name).is_file(), name
        for needed in ("pytest", "hypothesis"):
            assert needed in cfg["test-requires"]

    def test_workflow_builds_all_platforms_and_publishes_on_tags(self) -> None:
        """Wheels on Linux, macOS and Windows, the pure wheel and sdist, trusted publishing."""
        wf = _workflow()
        on = wf.get("on", wf.get(True))  # YAML 1.1 reads a bare `on` as true
        assert on["push"]["tags"] == ["v*"]
        jobs = wf["jobs"]
        oses = " ".join(jobs["wheels"]["strategy"]["matrix"]["os"])
        for family in ("ubuntu", "macos", "windows"):
            assert family in oses
        assert "cibuildwheel" in " ".join(s.get("run", "") for s in jobs["wheels"]["steps"])
        pure = " ".join(s.get("run", "") for s in jobs["pure"]["steps"])
        assert "--sdist --wheel" in pure and "py3-none-any" in pure
        assert "CANASTA_COMPILE" not in pure
        for name in _test_files(pure):
            assert (ROOT / "tests" / name).is_file(), name
        publish = jobs["publish"]
        assert set(publish["needs"]) == {"wheels", "pure"}
        assert publish["permissions"] == {"id-token": "write"}
        assert "refs/tags/v" in publish["if"]
        uses = [s.get("uses", "") for s in publish["steps"]]
        assert any(u.startswith("pypa/gh-action-pypi-publish@") for u in uses)
        assert not any("password" in s.get("with", {}) for s in publish["steps"])


def _hook_module(monkeypatch: pytest.MonkeyPatch) -> Any:
    """hatch_build.py, imported with a stand-in for hatchling (a build-time package only)."""
    import types

    interface = types.ModuleType("hatchling.builders.hooks.plugin.interface")
    interface.BuildHookInterface = type("BuildHookInterface", (), {})  # type: ignore[attr-defined]
    for name in ("hatchling", "hatchling.builders", "hatchling.builders.hooks",
                 "hatchling.builders.hooks.plugin"):
        monkeypatch.setitem(sys.modules, name, types.ModuleType(name))
    monkeypatch.setitem(sys.modules, interface.__name__, interface)
    spec = importlib.util.spec_from_file_location("hatch_build_under_test", ROOT / "hatch_build.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class TestCompiledBuildConfig:
    """The compiled build carries its mypy settings, and CI builds it with nothing extra."""

    def test_mypy_ini_carries_every_override(self, monkeypatch: pytest.MonkeyPatch) -> None:
        """Each module of pyproject's overrides gets one section with all its settings."""
        import configparser

        ini = configparser.ConfigParser()
        ini.read_string(_hook_module(monkeypatch).mypy_ini(ROOT / "pyproject.toml"))
        config = _tool("mypy")
        assert ini["mypy"]["strict"] == "True"
        assert "files" not in ini["mypy"] and "python_version" not in ini["mypy"]
        expected: dict[str, dict[str, str]] = {}
        for override in config["overrides"]:
            for module in override["module"]:
                for key, value in override.items():
                    if key != "module":
                        expected.setdefault(module, {})[key] = str(value)
        assert expected["ray"] == {"ignore_missing_imports": "True", "follow_imports": "skip"}
        for module, settings in expected.items():
            assert dict(ini[f"mypy-{module}"]) == settings

    def test_optional_imports_need_no_extras(
        self, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
    ) -> None:
        """With the written mypy.ini, mypy accepts the extras' imports without site-packages."""
        api = pytest.importorskip("mypy.api")
        (tmp_path / "mypy.ini").write_text(
            _hook_module(monkeypatch).mypy_ini(ROOT / "pyproject.toml"), encoding="utf-8"
        )
        (tmp_path / "uses_extras.py").write_text(
            "import matplotlib.pyplot\nimport pettingzoo\nimport pyspiel\nimport ray\n",
            encoding="utf-8",
        )
        monkeypatch.chdir(tmp_path)
        common = ["--no-site-packages", "--no-incremental", "--cache-dir", os.devnull,
                  "uses_extras.py"]
        out, _, status = api.run(["--config-file", "mypy.ini", *common])
        assert status == 0, out
        # without the settings (as the build hook ran mypyc before) the same imports fail
        (tmp_path / "empty.ini").write_text("[mypy]\n", encoding="utf-8")
        out, _, status = api.run(["--config-file", "empty.ini", *common])
        assert status == 1 and 'module named "ray"' in out

    def test_ci_builds_it_in_a_venv_of_its_own(self) -> None:
        """.ci/run builds the compiled engine with the README's command in a fresh venv."""
        script = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
        step = script[script.index("step_compiled_build() {"):]
        step = step[: step.index("\n}\n")]
        assert '"$PYTHON" -m venv "$venv"' in step
        assert 'CANASTA_COMPILE=1 "$venv/bin/python" -m pip install' in step
        assert "CI_VENV" not in step and ".[" not in step
        assert "(compiled engine)" in step
        readme = (ROOT / "README.md").read_text(encoding="utf-8")
        assert "CANASTA_COMPILE=1 python -m pip install ." in readme
