"""Which release of a real app a simulated app follows: `Source`, named by each app model's
`SOURCE` constant and read by `python -m taskkit.fidelity.table`."""
from __future__ import annotations

import dataclasses


@dataclasses.dataclass(frozen=True)
class Source:
    """A public source repository at the tag (or commit) the model follows.

    `version_code` is the versionCode of the APK AndroidWorld installs
    (android_world/env/setup_device/apps.py names it in the APK's file name); `libraries` are
    sources whose resources the app ships too (Simple-Commons at the commit the app's Gradle
    files pin); `res` is the folder of a checkout whose `res` folders count, when not all of
    them do."""

    repo: str  # owner/name on GitHub
    tag: str
    version_code: int | None = None
    libraries: tuple["Source", ...] = ()
    url: str | None = None  # where to clone from, when not https://github.com/<repo>
    res: str | None = None

    @property
    def folder(self) -> str:
        """The checkout's folder name under the sources directory: `<name>-<tag>`."""
        return f"{self.repo.rsplit('/', 1)[-1]}-{self.tag}"

    @property
    def clone_url(self) -> str:
        return self.url or f"https://github.com/{self.repo}"

    def fetch_command(self, sources_dir: str = "DIR") -> str:
        """The shell command that checks this source out where the fidelity script looks."""
        target = f"{sources_dir}/{self.folder}"
        if self.res is not None:  # only the resource folder of a large repository
            return (f"git clone --depth 1 --filter=blob:none --sparse --branch {self.tag} {self.clone_url} {target}"
                    f" && git -C {target} sparse-checkout set {self.res}")
        return f"git clone {self.clone_url} {target} && git -C {target} checkout {self.tag}"


def simple_commons(commit: str) -> Source:
    """Simple Mobile Tools' shared library at the commit an app's Gradle files pin."""
    return Source("SimpleMobileTools/Simple-Commons", commit)


#: AndroidX AppCompat's resources, which every modelled app ships (its toolbar's "Navigate up", the
#: overflow button's "More options", SearchView's "Clear query").
APPCOMPAT = Source("androidx/androidx", "appcompat-1.6.1", url="https://android.googlesource.com/platform/frameworks/support",
                   res="appcompat/appcompat/src/main/res")

#: Material Components for Android at the version Simple-Commons 71d66584bd pins; the modelled
#: apps use 1.6.1 to 1.9.0, and this one stands for all of them.
MATERIAL = Source("material-components/material-components-android", "1.9.0", res="lib/java")

#: Android 13's framework resources (android:id/*, android:string/*), as AndroidWorld's
#: emulator image (API 33) ships them.
FRAMEWORK = Source("aosp-mirror/platform_frameworks_base", "android-13.0.0_r1",
                   url="https://android.googlesource.com/platform/frameworks/base", res="core/res/res")
