"""taskkit.gym_ray: `taskkit/Task-v0` on Ray actors passes Gymnasium's checker on each sub-env,
and two actors run the scripted SimpleSmsSend policy to reward 1.0, as the local AsyncVectorEnv
does (tests/test_gym.py). One local Ray instance (2 CPUs) for the module."""
from __future__ import annotations

from typing import Iterator

import pytest

gymnasium = pytest.importorskip("gymnasium", reason="taskkit.gym_ray needs the gym extra (pip install 'taskkit[gym]')")
ray = pytest.importorskip("ray", reason="taskkit.gym_ray needs the ray extra (pip install 'taskkit[ray]')")

from gymnasium.utils.env_checker import check_env  # noqa: E402

from taskkit.gym import PhoneEnv  # noqa: E402
from taskkit.gym_ray import RayVectorEnv, ray_vector_env  # noqa: E402
from tests.test_gym import _act, play_sms_policy  # noqa: E402


@pytest.fixture(scope="module")
def envs() -> Iterator[RayVectorEnv]:
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        vector = ray_vector_env(2, task="SimpleSmsSend")
        yield vector
        vector.close()
        assert ray.is_initialized()  # not its own Ray instance: left running
    finally:
        ray.shutdown()


def test_each_sub_env_passes_gymnasiums_checker(envs: RayVectorEnv) -> None:
    local = PhoneEnv("SimpleSmsSend")
    try:
        assert (envs.single_observation_space, envs.single_action_space) == (local.observation_space, local.action_space)
    finally:
        local.close()
    for env in envs.envs:
        check_env(env, skip_render_check=True)


def test_two_actors_reach_reward_one_and_reset_on_the_next_step(envs: RayVectorEnv) -> None:
    observations, infos = envs.reset(seed=[30, 31])
    assert list(infos["instance_id"]) == ["SimpleSmsSend_0"] * 2 and observations["goal"][0] != observations["goal"][1]
    rewards, infos = play_sms_policy(envs, observations)
    assert rewards == [1.0, 1.0] and list(infos["score"]) == [1.0, 1.0]
    observations, reward, terminated, truncated, infos = envs.step((_act(action_type="wait"),) * 2)
    assert list(infos["step"]) == [0, 0] and list(reward) == [0.0, 0.0]  # NEXT_STEP: reset, the action ignored
    assert not terminated.any() and not truncated.any()
