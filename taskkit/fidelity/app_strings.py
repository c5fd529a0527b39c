"""An app's own translations of the labels its simulated screens show, read from the app's sources:
`python -m taskkit.fidelity.app_strings [--mirror DIR] [--check]` writes
taskkit/sim/gui/translations.<package>.json (taskkit.sim.gui.localize applies it).

The table is keyed by the app's **string resource**: for each label a modelled screen shows, the
resource it comes from (the app's layouts and code at the tag, cited per label below), its default
text (res/values/strings.xml) and its text in each of the app's `values-XX` directories that
B-MoCA's locales (taskkit.config.LOCALES) resolve to. Each locale's chain of directories is
resolved as Android resolves a locale against the directories an APK has (full tag, then
language; a region or script that does not match is skipped: zh-Hans-CN takes `values-zh`, not
`values-zh-rTW`); a string a directory lacks falls back to the next one, then to the default, so
it stays English. A plural is stored for the counts the screens show, per locale: the form the
locale's CLDR plural rule picks for that count (Babel's copy of CLDR), from the first directory of
its chain that has the plural. Reading the sources needs `git` and
the app's git mirror; writing the plural forms needs Babel (`pip install Babel`): the table is
generated once and committed, nothing here runs with the simulator.
"""
from __future__ import annotations

import argparse
import dataclasses
import json
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

from taskkit import config
from taskkit.errors import TaskkitError

GUI_DIR = Path(__file__).resolve().parents[1] / "sim" / "gui"
MIRRORS = Path("/work/.mirror")


@dataclasses.dataclass(frozen=True)
class Label:
    """A string resource a screen shows. `views`: the view ids (after `:id/`) it is shown in where
    another listed resource has the same English text (else empty: wherever its text is);
    `counts`: for a plural, the counts the screens show."""

    name: str
    views: tuple[str, ...] = ()
    counts: tuple[int, ...] = ()


@dataclasses.dataclass(frozen=True)
class AppSource:
    package: str
    repository: str  # owner/name on GitHub
    tag: str
    res: str  # the res directory in the repository
    labels: tuple[Label, ...]
    joins: tuple[dict, ...] = ()  # content descriptions the app joins from two labels (see localize)

    @property
    def output(self) -> Path:
        return GUI_DIR / f"translations.{self.package}.json"


# Wikipedia at the tag B-MoCA installs (taskkit/apps/wikipedia VERSION), paths under app/src/main/.
WIKIPEDIA = AppSource("org.wikipedia", "wikimedia/apps-android-wikipedia", "r/2.7.50484-r-2024-04-19",
                      "app/src/main/res", (
    # main: navtab/NavTab.kt (each tab's label, and MainActivity's toolbar title on the tab),
    # fragment_main.xml nav_more_container (text and contentDescription)
    Label("feed"), Label("nav_item_saved"), Label("nav_item_search"), Label("nav_item_suggested_edits"),
    Label("nav_item_more"),
    Label("search_hint"),  # view_search_bar.xml: the bar's text and contentDescription
    Label("view_offline_card_text"), Label("card_offline_error_retry"),  # view_card_offline.xml
    # the Saved tab: ReadingList.title of the default list, ReadingListItemView's statistical summary
    Label("default_reading_list_name", views=("item_title",)),
    Label("format_reading_list_statistical_summary_without_size", counts=(0,)),
    Label("history_empty_title"), Label("history_empty_message"),  # fragment_history.xml
    Label("main_drawer_login"),  # view_main_drawer.xml main_drawer_login_button
    # the Edits tab logged out: views/MessageCardView.kt setRequiredLogin's positive button
    Label("suggested_edits_encourage_account_creation_login_button", views=("positiveButton",)),
    Label("places_title"), Label("settings_item_preferences"), Label("nav_item_donate"),  # view_main_drawer.xml
    # settings: AndroidManifest.xml SettingsActivity's label, res/xml/preferences.xml
    Label("settings_activity_title"), Label("preferences_general_heading"), Label("preference_title_language"),
    Label("preference_title_customize_explore_feed"), Label("preference_summary_customize_explore_feed"),
    Label("preference_title_show_link_previews"), Label("preference_summary_show_link_previews"),
    Label("preference_title_collapse_tables"), Label("preference_summary_collapse_tables"),
    Label("preference_title_app_theme"), Label("preferences_heading_syncing"),
    Label("preference_title_download_reading_list_articles"), Label("preferences_heading_data_usage"),
    Label("preference_title_download_only_over_wifi"), Label("preference_title_show_images"),
    Label("preference_summary_show_images"), Label("preference_title_prefer_offline_content"),
    Label("preference_summary_prefer_offline_content"),
    # App theme's summary: SettingsPreferenceLoader, Theme.nameId
    Label("color_theme_light"), Label("color_theme_sepia"), Label("color_theme_dark"), Label("color_theme_black"),
    # configure: ConfigureActivity's label, feed/FeedContentType.kt titleId and subtitleId, menu_feed_configure.xml
    Label("feed_configure_activity_title"),
    Label("view_featured_article_card_title"), Label("feed_item_type_featured_article"),
    Label("view_top_read_card_title"), Label("feed_item_type_trending"),
    Label("view_featured_image_card_title"), Label("feed_item_type_featured_image"),
    Label("view_because_you_read_card_title"), Label("feed_item_type_because_you_read"),
    Label("view_card_news_title"), Label("feed_item_type_news"),
    Label("on_this_day_card_title"), Label("feed_item_type_on_this_day"),
    Label("view_random_card_title"), Label("feed_item_type_randomizer"),
    Label("view_main_page_card_title"), Label("feed_item_type_main_page"),
    Label("feed_configure_menu_select_all"), Label("feed_configure_menu_deselect_all"),
    Label("feed_configure_menu_reset"),
    # theme: dialog_theme_chooser.xml, ThemeChooserDialog.updateFontSize (text_size_percent_default)
    Label("theme_category_reading"), Label("text_size_percent_default"), Label("text_size_decrease"),
    Label("text_size_increase"), Label("reading_focus_mode"), Label("reading_focus_mode_detail"),
    Label("color_theme_select"), Label("theme_chooser_dialog_match_system_theme_switch_label"),
    Label("theme_chooser_dialog_image_dimming_switch_label"),
), joins=({"separator": ", ", "source": "feed/configure/ConfigureFragment.kt: a card type's row is described as "
                                        "getString(titleId) + \", \" + getString(subtitleId)"},))
SOURCES = {"wikipedia": WIKIPEDIA}


class SourceError(TaskkitError):
    """The app's sources cannot be read (no mirror, no tag): one line naming what to fetch."""


def _git(git_dir: Path, *args: str) -> str:
    done = subprocess.run(["git", f"--git-dir={git_dir}", *args], capture_output=True, text=True)
    if done.returncode != 0:
        why = (done.stderr.strip().splitlines() or ["failed"])[-1]
        raise SourceError(f"git {' '.join(args)} in {git_dir}: {why} (fetch the app's repository and pass its git "
                          "directory with --mirror)")
    return done.stdout


# --------------------------------------------------------------------------------- strings.xml
def unescape(raw: str) -> str:
    """A string resource's text as the app shows it (aapt2's rules: surrounding quotes kept
    verbatim, backslash escapes resolved, unquoted whitespace runs collapsed)."""
    if len(raw) >= 2 and raw[0] == raw[-1] == '"':
        raw = raw[1:-1]
    else:
        raw = re.sub(r"\s+", " ", raw).strip()
    return re.sub(r"\\(u[0-9a-fA-F]{4}|.)", _escaped, raw)


def _escaped(match: re.Match[str]) -> str:
    """What one backslash escape stands for: \\n, \\t, \\uXXXX, else the character itself."""
    code = match[1]
    return {"n": "\n", "t": "\t"}.get(code) or (chr(int(code[1:], 16)) if len(code) == 5 else code)


def parse_strings(xml: str) -> tuple[dict[str, str], dict[str, dict[str, str]]]:
    """The strings and the plurals (quantity -> text) of one strings.xml."""
    root = ET.fromstring(xml)
    strings = {e.get("name", ""): unescape("".join(e.itertext())) for e in root.iter("string")}
    plurals = {e.get("name", ""): {item.get("quantity", ""): unescape("".join(item.itertext()))
                                   for item in e.iter("item")} for e in root.iter("plurals")}
    return strings, plurals


# ------------------------------------------------------------------------------------ locales
_HANT_REGIONS = ("TW", "HK", "MO")


def _qualifier(directory: str) -> tuple[str, str, str] | None:
    """(language, script, region) of a `values-XX` directory's locale, None for other qualifiers."""
    rest = directory.removeprefix("values-")
    if rest.startswith("b+"):
        parts = rest[2:].split("+")
        script = next((p for p in parts[1:] if len(p) == 4), "")
        region = next((p for p in parts[1:] if len(p) in (2, 3) and p.isalnum() and p != script), "")
        return parts[0], script, region
    match = re.fullmatch(r"([a-z]{2,3})(?:-r([A-Z]{2}))?", rest)
    return (match[1], "", match[2] or "") if match else None


def _script(language: str, script: str, region: str) -> str:
    """The script a locale writes in where it matters for matching (Chinese: Hans or Hant)."""
    if script or language != "zh":
        return script
    return "Hant" if region in _HANT_REGIONS else "Hans"


def resolve(locale: str, directories: list[str]) -> list[str]:
    """The `values-XX` directories (their XX) `locale` reads, most specific first: Android's
    matching (ResTable_config::match: the language must match, a region or script a directory
    names must match the locale's) and preference (the one naming the region before the one
    naming only the language)."""
    parts = locale.replace("_", "-").split("-")
    language, script = parts[0], next((p for p in parts[1:] if len(p) == 4), "")
    region = next((p.upper() for p in parts[1:] if len(p) == 2), "")
    wanted = _script(language, script, region)
    found = []
    for directory in directories:
        qualifier = _qualifier(directory)
        if qualifier is None or qualifier[0] != language:
            continue
        lang, dir_script, dir_region = qualifier
        if dir_region and dir_region != region or _script(lang, dir_script, dir_region) != wanted:
            continue
        found.append((not dir_region, directory.removeprefix("values-")))
    return [name for _, name in sorted(found)]


# ------------------------------------------------------------------------------------- table
Files = dict[str, tuple[dict[str, str], dict[str, dict[str, str]]]]  # directory's XX -> its strings, plurals


def _plurals(name: str, counts: tuple[int, ...], files: Files,
             chains: dict[str, list[str]]) -> dict[str, dict[str, str]]:
    """count -> {"": the default form, locale: its form}: Android takes the plural from the first
    directory of the locale's chain that has it and picks its quantity by the *device locale's*
    CLDR rule (PluralRules.forLocale: pt-PT's 0 is "other", pt-BR's "one"), "other" if missing."""
    from babel import Locale  # generation only: CLDR's plural rules

    def form(forms: dict[str, str], locale: str, count: int) -> str | None:
        return forms.get(Locale.parse(locale, sep="-").plural_form(count)) or forms.get("other")

    found = {}
    for count in counts:
        by_locale = {"": form(files[""][1][name], "en", count)}
        for locale, chain in chains.items():
            forms = next((files[q][1][name] for q in chain if name in files[q][1]), None)
            if forms is not None:
                by_locale[locale] = form(forms, locale, count)
        found[str(count)] = {key: text for key, text in by_locale.items() if text is not None}
    return found


def build(source: AppSource, git_dir: Path) -> dict:
    """The app's table: its strings and plurals per resource and each B-MoCA locale's chain."""
    commit = _git(git_dir, "rev-parse", f"{source.tag}^{{commit}}").strip()
    listed = _git(git_dir, "ls-tree", "--name-only", f"{source.tag}:{source.res}").split()
    directories = sorted(d for d in listed if d.startswith("values-") and _qualifier(d))
    chains = {locale: resolve(locale, directories) for locale in config.LOCALES if not locale.startswith("en")}
    used = sorted({q for chain in chains.values() for q in chain})

    def read(qualifier: str) -> tuple[dict[str, str], dict[str, dict[str, str]]]:
        folder = "values" + (f"-{qualifier}" if qualifier else "")
        return parse_strings(_git(git_dir, "show", f"{commit}:{source.res}/{folder}/strings.xml"))

    files = {q: read(q) for q in ["", *used]}
    strings: dict[str, dict] = {}
    for label in source.labels:
        kind = "plural" if label.counts else "text"
        if label.name not in files[""][1 if label.counts else 0]:
            raise SourceError(f"{label.name}: no such {kind} in {source.res}/values/strings.xml at {source.tag}")
        if label.counts:
            entry = _plurals(label.name, label.counts, files, chains)
        else:
            entry = {q: files[q][0][label.name] for q in files if label.name in files[q][0]}
        strings[label.name] = {kind: entry} | ({"views": list(label.views)} if label.views else {})
    _check_unambiguous(source, strings)
    return {"source": f"{source.package}'s own string resources for the labels its simulated screens show, read from "
                      f"{source.repository} at {source.tag} ({source.res}/values[-XX]/strings.xml) by "
                      f"taskkit/fidelity/app_strings.py; '' is the default (English) text",
            "package": source.package, "repository": source.repository, "tag": source.tag, "commit": commit,
            "locales": chains, "joins": list(source.joins), "strings": strings}


def _check_unambiguous(source: AppSource, strings: dict[str, dict]) -> None:
    """Two resources of one English text that some language tells apart must be scoped to views."""
    by_text: dict[str, list[str]] = {}
    for name, entry in strings.items():
        if "text" in entry and not entry.get("views"):
            by_text.setdefault(entry["text"][""], []).append(name)
    for text, names in by_text.items():
        values = {json.dumps({q: v for q, v in strings[n]["text"].items()}, sort_keys=True) for n in names}
        if len(values) > 1:
            raise SourceError(f"{source.package}: {names} all read {text!r} in English but differ in translation: "
                              "give all but one the view ids they are shown in (Label.views)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("app", nargs="?", default="wikipedia", choices=sorted(SOURCES))
    parser.add_argument("--mirror", type=Path, default=None,
                        help="the app's git directory (default: /work/.mirror/<owner>+<name>/repo)")
    parser.add_argument("--check", action="store_true", help="exit 1 if the stored table differs from the sources")
    args = parser.parse_args(argv)
    source = SOURCES[args.app]
    git_dir = args.mirror or MIRRORS / source.repository.replace("/", "+") / "repo"
    try:
        table = build(source, git_dir)
    except SourceError as error:
        print(f"app_strings: {error}", file=sys.stderr)
        return 2
    text = json.dumps(table, ensure_ascii=False, indent=1) + "\n"
    if args.check:
        same = source.output.exists() and source.output.read_text(encoding="utf-8") == text
        print(f"{source.output.name}: {'up to date' if same else 'differs from the sources'}")
        return 0 if same else 1
    source.output.write_text(text, encoding="utf-8")
    print(f"wrote {source.output} ({len(table['strings'])} resources, {len(table['locales'])} locales)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
