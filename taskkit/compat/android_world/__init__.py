"""AndroidWorld task files on taskkit: its module paths, so porting a task file is a mechanical
rewrite of its imports (`from android_world.env import adb_utils` →
`from taskkit.compat.android_world.env import adb_utils`).

Written from AndroidWorld's documented behaviour (its task files and docs), not from its code:
`task_evals.task_eval.TaskEval` (no-argument `generate_random_params` seeded the way
AndroidWorld's suite seeds it, `params["seed"]`, `str.format` templates, a base `is_successful`
returning 1.0, `env.controller`), `env.interface`, `env.adb_utils`, `env.device_constants`,
`task_evals.utils.schema`, `utils.file_utils` and `utils.fuzzy_match_lib`. It uses taskkit's
public API only. docs/android-world.md lists what it covers so far.
"""
