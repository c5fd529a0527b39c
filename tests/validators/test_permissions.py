"""`permission_granted`: a runtime permission as the package manager reports it (granted, for good
or only this time), on the simulated device; its near misses; names that are not runtime
permissions refused when the check is built."""
from __future__ import annotations

import pytest

from taskkit.env import Env
from taskkit.testing.mutations import Observation, derive
from taskkit.validators import not_, permission_granted
from taskkit.validators.permissions import RUNTIME_PERMISSIONS

PACKAGE, MIC = "com.dimowner.audiorecorder", "android.permission.RECORD_AUDIO"


@pytest.fixture(scope="module")
def env(module_device):
    return Env(module_device)


_USER_FLAGS = ("user-set", "user-fixed", "one-time")


def _set(env: Env, granted: bool, *flags: str) -> None:
    """The microphone granted or revoked (`pm`), with exactly these user flags."""
    packages = env.device.packages
    (packages.grant if granted else packages.revoke)(PACKAGE, MIC)
    packages.clear_permission_flags(PACKAGE, MIC, *_USER_FLAGS)
    if flags:
        packages.set_permission_flags(PACKAGE, MIC, *flags)


def _scores(env: Env) -> tuple[float, float, float]:
    """(either way, for good, only this time)."""
    return tuple(permission_granted(PACKAGE, MIC, one_time).evaluate(env, None).score  # type: ignore[return-value]
                 for one_time in (None, False, True))


def test_the_set_up_grant_counts_as_granted_for_good(env):
    _set(env, True)  # as AndroidWorld's set-up grants it
    assert _scores(env) == (1.0, 1.0, 0.0)
    result = permission_granted(PACKAGE, MIC, one_time=True).evaluate(env, None)
    assert result.reasons == (f"{MIC} is granted for good, expected only this time",)


def test_a_revoked_permission_is_not_granted_either_way(env):
    _set(env, False, "user-set")  # "Don't allow"
    assert _scores(env) == (0.0, 0.0, 0.0)
    assert permission_granted(PACKAGE, MIC).evaluate(env, None).reasons == (f"{PACKAGE} does not hold {MIC}",)


def test_only_this_time_is_the_one_time_flag(env):
    _set(env, True, "user-set", "one-time")
    assert _scores(env) == (1.0, 0.0, 1.0)
    result = permission_granted(PACKAGE, MIC, one_time=False).evaluate(env, None)
    assert result.reasons == (f"{MIC} is granted only this time, expected for good",)


@pytest.mark.parametrize("one_time, names", [
    (None, [f"permission {MIC} denied"]),
    (False, [f"permission {MIC} denied", f"permission {MIC} granted only this time"]),
    (True, [f"permission {MIC} denied", f"permission {MIC} granted for good"]),
])
def test_each_near_miss_fails_the_check_and_its_undo_restores_the_grant(env, one_time, names):
    _set(env, True, "user-set", *(["one-time"] if one_time else []))
    check = permission_granted(PACKAGE, MIC, one_time)
    mutations = derive(check, Observation(env))
    assert [m.name for m in mutations] == names
    for mutation in mutations:
        mutation.apply(env)
        assert check.evaluate(env, None).score == 0.0, mutation.name
        mutation.undo(env)
        assert check.evaluate(env, None).score == 1.0, mutation.name


def test_not_permission_granted_is_mutated_by_granting_it(env):
    _set(env, False)
    check = not_(permission_granted(PACKAGE, MIC, one_time=True))
    [mutation] = derive(check, Observation(env))  # not_'s near misses are what satisfies its part
    assert mutation.name.endswith(f"permission {MIC} granted")
    mutation.apply(env)
    assert check.evaluate(env, None).score == 0.0
    mutation.undo(env)
    assert env.device.packages.runtime_permission(PACKAGE, MIC) == (False, frozenset())


@pytest.mark.parametrize("name, hint", [
    ("android.permission.INTERNET", "e.g. android.permission.RECORD_AUDIO"),  # granted at install, never asked for
    ("RECORD_AUDIO", "did you mean android.permission.RECORD_AUDIO"),
    ("android.permission.RECORD_AUDIOS", "did you mean android.permission.RECORD_AUDIO"),
])
def test_a_name_that_is_not_a_runtime_permission_is_refused_when_built(name, hint):
    with pytest.raises(ValueError, match=f"'{name}' is not one of Android 13's runtime permissions .*{hint}"):
        permission_granted(PACKAGE, name)


def test_the_runtime_permissions_are_android_13s_platform_ones():
    assert {MIC, "android.permission.POST_NOTIFICATIONS", "android.permission.READ_MEDIA_IMAGES",
            "com.android.voicemail.permission.ADD_VOICEMAIL"} <= RUNTIME_PERMISSIONS
    assert len(RUNTIME_PERMISSIONS) == 43 and "android.permission.INTERNET" not in RUNTIME_PERMISSIONS
