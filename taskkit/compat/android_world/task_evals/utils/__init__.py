"""`android_world.task_evals.utils`: schema helpers."""
