"""taskkit: parameterized, reproducible tasks for benchmarking Android agents."""
from setuptools import find_packages, setup

setup(
    name="taskkit",
    version="0.1.0",
    description="Author, self-test and run reproducible Android agent benchmark tasks.",
    long_description=open("README.md", encoding="utf-8").read(),
    long_description_content_type="text/markdown",
    python_requires=">=3.10",
    packages=find_packages(include=["taskkit", "taskkit.*", "apps", "apps.*", "validators", "validators.*", "task_protos"]),
    include_package_data=True,
    package_data={"taskkit": ["golden/*.json"], "task_protos": ["*.proto", "*.textproto"]},
    install_requires=[
        # Faker shapes generated task content (names, sentences): pinned exactly so that a
        # seed means the same tasks on every install.
        "Faker==40.54.0",
        "Jinja2>=3.1,<4",
        "absl-py>=2.1",
        "sqlite-utils>=3.36",
        "adbutils>=2.12,<3",
        "protobuf>=4.25",
    ],
    extras_require={
        "test": ["pytest>=8", "hypothesis>=6.100"],
    },
    entry_points={"pytest11": ["taskkit = taskkit.testing.plugin"]},
)
