"""Reusable checks of device state, each usable in one line from a task.

Every validator takes a snapshot at initialize time and compares it with the state at check
time, returning a `CheckResult` (a score in [0, 1] and reasons when it is below 1).
"""
from taskkit.validators.activity import app_in_foreground
from taskkit.validators.answers import answer_equals
from taskkit.validators.base import CheckResult, Validator, all_of, any_of, not_, weighted
from taskkit.validators.detectors import command_output_matches, key_components, ui_element_matches
from taskkit.validators.exists import row_exists
from taskkit.validators.files import file_absent, file_content, file_exists, folder_exists, no_files_under
from taskkit.validators.fuzzy import fuzzy_match, similarity
from taskkit.validators.logcat import logcat_matches
from taskkit.validators.milestones import milestone, ordered, unordered
from taskkit.validators.permissions import permission_granted
from taskkit.validators.providers import provider_row_exists
from taskkit.validators.questions import answer_matches, select
from taskkit.validators.rows import duplicates_removed, rows_added, rows_deleted, rows_updated
from taskkit.validators.sources import ProviderUri, RowDiff, Table
from taskkit.validators.settings import setting_equals
from taskkit.validators.shared_prefs import shared_pref_equals

__all__ = [
    "CheckResult", "ProviderUri", "Table", "Validator", "all_of", "answer_equals", "app_in_foreground", "answer_matches", "any_of",
    "command_output_matches", "duplicates_removed", "key_components", "ui_element_matches", "file_absent", "file_content", "file_exists", "folder_exists", "fuzzy_match", "logcat_matches", "milestone", "no_files_under", "ordered", "unordered",
    "not_",
    "permission_granted", "provider_row_exists", "RowDiff", "row_exists", "rows_added", "rows_deleted", "rows_updated", "select",
    "setting_equals", "shared_pref_equals", "similarity", "weighted",
]
