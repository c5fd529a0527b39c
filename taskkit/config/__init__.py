"""Device configurations (B-MoCA's randomized environments): a seeded, JSON-able value per device.

A `DeviceConfig` names what B-MoCA varies — device type (screen size), density, font scale,
locale, dark theme, wallpaper and the home screen's icon layout — plus the time zone and 24-hour
clock AndroidWorld pins. Configs are drawn from a seed (`draw`), taken from a named set
(`named("bmoca-105")`, the B-MoCA environments with their train/test split in bmoca.json,
from the paper's Appendix A.2), or read from a user's JSON file of the same shape.
`taskkit.config.apply` puts one on a device through shell commands, verifies it and restores
the previous one.
"""
from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path
from typing import Any, Mapping

from taskkit.device.catalog import BMOCA_IMAGE
from taskkit.errors import TaskkitError
from taskkit.rng import TaskRng

# Screen sizes (px) of the device types B-MoCA uses (its device configs; the tablet is landscape).
DEVICE_TYPES: dict[str, tuple[int, int]] = {
    "Pixel 3": (1080, 2160), "Pixel 4": (1080, 2280), "Pixel 4 XL": (1440, 3040), "Pixel 5": (1080, 2340),
    "Pixel 6": (1080, 2400), "WXGA Tablet": (1200, 800),
}
DENSITIES = (160, 330, 440, 550, 700)  # B-MoCA's DPI settings
FONT_SCALES = (0.85, 1.0, 1.15)  # B-MoCA's font sizes
# B-MoCA's 15 locales (12 for training environments, 3 more in the test environments).
LOCALES = ("en-US", "es-US", "fr-CA", "zh-Hans-CN", "hi-IN", "ja-JP", "ru-MD", "ar-AE", "de-DE", "ak-GH",
           "pt-BR", "pt-PT", "ko-KR", "ar-EG", "ur-PK")
WALLPAPERS = ("00_default", "01_red", "02_blue", "03_paper", "04_sky", "05_doughnut", "07_food", "08_colors",
              "09_rainbow", "10_galaxy", "11_pyramid", "12_ocean", "13_canyon")
SETS_FILE = Path(__file__).with_name("bmoca.json")
_PACKAGE_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_]*(\.[A-Za-z][A-Za-z0-9_]*)+")


class ConfigError(TaskkitError, ValueError):
    """A config, a config name or a config file that cannot be used (the message says why)."""


@dataclasses.dataclass(frozen=True)
class DeviceConfig:
    """One device configuration; `icon_seed` None keeps the launcher's default home screen."""

    name: str = "default"
    device_type: str = "Pixel 6"
    density: int = 420
    font_scale: float = 1.0
    locale: str = "en-US"
    dark: bool = False
    wallpaper: str = "00_default"
    icon_seed: int | None = None
    time_zone: str = "UTC"
    clock_24h: bool = True
    #: Apps the config's image has beyond AndroidWorld's, installed while it is applied (`pm
    #: install-existing`): B-MoCA's configs have Wikipedia (catalog.BMOCA_IMAGE).
    packages: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "packages", tuple(self.packages))
        problems = [f"package {name!r} is not a package name such as 'org.wikipedia'"
                    for name in self.packages if not isinstance(name, str) or not _PACKAGE_NAME.fullmatch(name)]
        if self.device_type not in DEVICE_TYPES:
            problems.append(f"device_type {self.device_type!r} is not one of {', '.join(DEVICE_TYPES)}")
        if not 72 <= int(self.density) <= 1000:
            problems.append(f"density {self.density} is outside 72..1000")
        if not 0.5 <= float(self.font_scale) <= 2.0:
            problems.append(f"font_scale {self.font_scale} is outside 0.5..2.0")
        if not self.locale or not all(part.isalnum() for part in self.locale.split("-")):
            problems.append(f"locale {self.locale!r} is not a BCP 47 tag such as 'ko-KR'")
        if self.wallpaper not in WALLPAPERS:
            problems.append(f"wallpaper {self.wallpaper!r} is not one of {', '.join(WALLPAPERS)}")
        if problems:
            raise ConfigError(f"device config {self.name!r}: " + "; ".join(problems))

    @property
    def size(self) -> tuple[int, int]:
        return DEVICE_TYPES[self.device_type]

    @property
    def right_to_left(self) -> bool:
        return self.locale.split("-")[0] in ("ar", "ur", "fa", "he", "iw")

    def as_json(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> "DeviceConfig":
        fields = {f.name for f in dataclasses.fields(cls)}
        unknown = sorted(set(data) - fields)
        if unknown:
            raise ConfigError(f"device config {data.get('name', '?')!r}: unknown field(s) {', '.join(unknown)}; "
                              f"known: {', '.join(sorted(fields))}")
        return cls(**data)


def draw(seed: int) -> DeviceConfig:
    """A random config from B-MoCA's ranges, the same for the same seed on every machine."""
    rng = TaskRng(seed)
    device_type = rng.choice(sorted(DEVICE_TYPES))
    return DeviceConfig(name=f"random-{seed}", device_type=device_type, density=rng.choice(DENSITIES),
                        font_scale=rng.choice(FONT_SCALES), locale=rng.choice(LOCALES), dark=rng.random() < 0.5,
                        wallpaper=rng.choice(WALLPAPERS), icon_seed=rng.getrandbits(31), packages=BMOCA_IMAGE)


@dataclasses.dataclass(frozen=True)
class ConfigSet:
    """Named configs and their splits (train, test, …)."""

    configs: dict[str, DeviceConfig]
    splits: dict[str, tuple[str, ...]]

    def split(self, name: str) -> list[DeviceConfig]:
        if name not in self.splits:
            raise ConfigError(f"no split {name!r}; this set has {', '.join(sorted(self.splits))}")
        return [self.configs[n] for n in self.splits[name]]


def load_set(path: str | Path) -> ConfigSet:
    """A config set from JSON: {"configs": [{...}, ...], "splits": {"train": [names], ...}}."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise ConfigError(f"{path}: cannot read a config set ({error})") from None
    if not isinstance(data, dict) or not isinstance(data.get("configs"), list):
        raise ConfigError(f"{path}: a config set is an object with a \"configs\" list")
    configs: dict[str, DeviceConfig] = {}
    for entry in data["configs"]:
        if not isinstance(entry, dict) or "name" not in entry:
            raise ConfigError(f"{path}: every config needs a \"name\"")
        config = DeviceConfig.from_json(entry)
        configs[config.name] = config
    splits = {str(k): tuple(v) for k, v in (data.get("splits") or {}).items()}
    missing = sorted({n for names in splits.values() for n in names} - set(configs))
    if missing:
        raise ConfigError(f"{path}: split(s) name unknown config(s) {', '.join(missing)}")
    return ConfigSet(configs, splits)


def builtin_set() -> ConfigSet:
    """B-MoCA's 45 environments (000–034 train from the paper, 100–109 test from its repository's
    environment CSV, which differs from the paper in 105–109); each has its own icon layout
    (its id seeds it; environment 100 keeps the default home screen, B-MoCA's vanilla one) and
    B-MoCA's image's apps (Wikipedia: its asset/environments/resource/apks_versions.txt)."""
    found = load_set(SETS_FILE)
    configs = {name: dataclasses.replace(c, icon_seed=None if name == "bmoca-100" else int(name.split("-")[1]),
                                         packages=BMOCA_IMAGE)
               for name, c in found.configs.items()}
    return ConfigSet(configs, found.splits)


def resolve(spec: str, seed: int = 0) -> list[DeviceConfig]:
    """The configs a `--device_config` value names: `default`, `random` (drawn from `seed`), a
    split of the built-in set (`train`, `test`), one built-in config (`bmoca-105`), or
    `FILE.json[:NAME|:SPLIT]` for a user's set."""
    if spec == "default":
        return [DeviceConfig()]
    if spec == "random":
        return [draw(seed)]
    if spec.endswith(".json") or ".json:" in spec:
        path, _, name = spec.partition(".json")
        found = load_set(path + ".json")
        name = name.lstrip(":")
        if not name:
            return list(found.configs.values())
        return found.split(name) if name in found.splits else [_one(found, name)]
    found = builtin_set()
    if spec in found.splits:
        return found.split(spec)
    return [_one(found, spec)]


def _one(found: ConfigSet, name: str) -> DeviceConfig:
    if name not in found.configs:
        raise ConfigError(f"unknown device config {name!r}: use default, random, train, test, a name such as "
                          f"bmoca-105, or FILE.json[:NAME]")
    return found.configs[name]
