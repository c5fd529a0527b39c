"""taskkit: parameterized, reproducible tasks for benchmarking Android agents."""
import re

from setuptools import find_packages, setup

NAMESPACED = ("apps", "validators", "task_protos")

setup(
    name="taskkit",
    version=re.search(r'__version__ = "([^"]+)"', open("taskkit/__init__.py", encoding="utf-8").read()).group(1),
    description="Author, self-test and run reproducible Android agent benchmark tasks.",
    long_description=open("README.md", encoding="utf-8").read(),
    long_description_content_type="text/markdown",
    license="Apache-2.0",
    license_files=["LICENSE", "NOTICE"],
    python_requires=">=3.10",
    # The card's top-level folders install under taskkit's namespace (taskkit.apps,
    # taskkit.validators, taskkit.task_protos), so that no installed name collides with another
    # distribution's (PyPI's `validators`, say).
    packages=find_packages(include=["taskkit", "taskkit.*"]) + [
        f"taskkit.{package}" for folder in NAMESPACED for package in find_packages(include=[folder, f"{folder}.*"])
    ],
    package_dir={f"taskkit.{folder}": folder for folder in NAMESPACED},
    package_data={"taskkit.task_protos": ["*.proto", "*.textproto"],
                  "taskkit": ["templates/*.j2", "*.json"], "taskkit.config": ["*.json"],
                  "taskkit.fidelity": ["*.json"], "taskkit.sim.gui": ["translations*.json", "fonts/*"],
                  "taskkit.compat.android_world.android_env.proto": ["*.proto"]},  # adb_pb2's source
    install_requires=[
        # Faker shapes generated task content (names, sentences): pinned exactly so that a
        # seed means the same tasks on every install.
        "Faker==40.54.0",
        "Jinja2>=3.1,<4",
        "absl-py>=2.1",
        "sqlite-utils>=3.36",
        "adbutils>=2.12,<3",
        "protobuf>=4.25",
        # The simulated device renders its screens (`screencap -p`) with Pillow.
        "Pillow>=10.1",
        # taskkit.check and the taskkit.testing pytest plugin prove tasks with these.
        "pytest>=8",
        "hypothesis>=6.100",
    ],
    extras_require={
        # The `llm` agent's client (its tests run against a local scripted server).
        "llm": ["openai>=1.40"],
        # `--executor ray`: the device pool on a Ray cluster (its test runs a local Ray instance).
        "ray": ["ray>=2.9"],
        # taskkit.gym: the tasks as a Gymnasium environment (taskkit/Task-v0).
        "gym": ["gymnasium>=1.0"],
        # taskkit.openenv: the tasks as an OpenEnv environment over HTTP (python -m taskkit.openenv).
        "openenv": ["openenv-core>=0.3", "gymnasium>=1.0"],
        # examples/train_grpo.py: TRL's GRPO against that server. Install torch first, CPU-only:
        # pip install torch --index-url https://download.pytorch.org/whl/cpu (PyPI's pulls CUDA).
        "train": ["trl>=1.0", "datasets>=2.14", "openenv-core>=0.3", "gymnasium>=1.0"],
        # taskkit.demos.to_hf_dataset: the demonstrations as a Hugging Face dataset.
        "demos": ["datasets>=2.14"],
        # (Spelled with a hyphen: pip before 23.3 matches extras literally, after PEP 685 normalizes.)
        # AndroidWorld's own task code imported from a checkout (taskkit.compat.android_world.checkout):
        # the pure-Python libraries it imports beyond taskkit's (cv2 draws its receipts, pydub its
        # audio files, immutabledict its constants).
        "android-world": ["immutabledict>=2", "opencv-python-headless>=4.8", "pydub>=0.25"],
        # "av" (FFmpeg) decodes the simulated media files in the tests, as a player would;
        # pytest-xdist runs the suite on every core.
        # The API reference (docs/api): `sphinx-build -b html docs/api OUT`.
        "docs": ["sphinx>=7"],
        "test": ["openai>=1.40", "ray>=2.9", "av>=12", "pytest-xdist>=3", "gymnasium>=1.0", "datasets>=2.14", "sphinx>=7",
                 "openenv-core>=0.3", "trl>=1.0"],
    },
    entry_points={"pytest11": ["taskkit = taskkit.testing.plugin"]},
)
