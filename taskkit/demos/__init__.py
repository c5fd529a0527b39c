"""Demonstrations: each task's GUI reference played through the runner, kept as a dataset of
verified steps (`python -m taskkit.demos`, see `__main__`), and read back for training.

    from taskkit import demos
    for step in demos.load("D"): ...            # one dict per step (dataset.STEP_FIELDS)
    hf = demos.to_hf_dataset("D")               # a datasets.Dataset: pip install 'taskkit[demos]'
"""
from taskkit.demos.dataset import (EPISODE_FIELDS, STEP_FIELDS, DatasetError, MissingExtra, build, load,
                                   load_episodes, to_hf_dataset)

__all__ = ["EPISODE_FIELDS", "STEP_FIELDS", "DatasetError", "MissingExtra", "build", "load", "load_episodes",
           "to_hf_dataset"]
