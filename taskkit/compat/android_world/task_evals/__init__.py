"""`android_world.task_evals`: the TaskEval base and its utilities."""
