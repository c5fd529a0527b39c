"""Markor: the file list of Documents/Markor, the new-file dialog, the editor (saved when it is left)
and deleting by long press, over the files the Markor checks read.

Ids follow gsantner/markor (the new-file dialog's `new_file_dialog__name` and `new_file_dialog__ext`
with OK as `android:id/button1`, the add button `fab_add_new_item`, the editor
`document__fragment__edit__highlighting_editor`, list rows' `opoc_filesystem_item__title`, its
second line `opoc_filesystem_item__description` with the file's last change, date then time), as
UI-automation scripts for the app use them. As in the app, OK creates the file and opens it, and the
dialog's neutral button "Folder" creates a folder of the typed name instead (NewFileDialog.java,
`setNeutralButton(R.string.folder, ...)`); the editor's text is written when the editor is left
(BACK, Navigate up, HOME: Markor saves in onPause). A long press selects a file; while some are
selected a tap adds a row to the selection or drops it (GsFileBrowserListAdapter.toggleSelection);
the title is cleared meanwhile (MainActivity). The app bars follow res/menu/filesystem__menu.xml,
main__menu.xml and GsFileBrowserFragment.updateMenuItems: the list shows Go to, Sort by and Search
as icons and Import from device and Settings in its overflow menu; a selection shows Favourite,
Rename and Details (one selected) and Delete (`action_delete_selected_items`; "Confirm Delete" asks
"Do you really want to delete this Document?" above the paths) as icons, and Clipboard (one text
file), Move (`action_move_selected_items`), Copy, Create shortcut (one) and Share (files only) in
the overflow menu. Rename is WrRenameDialog ("Rename", the field `new_name` holding the current
name, OK; a name already taken is refused). Move opens the folder dialog (GsFileBrowserDialog,
opoc_filesystem_dialog.xml: the title bar says "Move", the list `ui__filesystem_dialog__list` starts
in the current folder with ".." to go up, and `ui__filesystem_dialog__button_ok` "Select this
folder" moves the selection there; strings from res/values/strings.xml). The name field takes the
name; the extension field (".md") is added unless the name already ends in a known extension; the
add button's dialog is "Create new document" and an empty folder shows the fragment's "¯\\_(ツ)_/¯".
Simplified: no file-type spinner, templates, sorting or search; the bottom navigation
(main__bottom_nav.xml: Files, To-Do, QuickNote, More) stays on Files; Go to, Sort by, Search,
Favourite, Details, Clipboard, Copy, Create shortcut, Share, Import and Settings are there to be
found, and do nothing, as are the editor's Undo, Redo, View mode and Search icons and its overflow
items (File settings, Share, Tools, Info, Reload; document__edit__menu.xml as
DocumentEditAndViewFragment shows it for a text file), whose Save writes the text; the move dialog
lists folders only, without its home, search and new-folder buttons; a tap on the editor puts the
cursor at the end of the text. The editor's formatting bar (document__fragment__edit.xml's
`document__fragment__edit__text_actions_bar`, the buttons of markor_actions.BUTTONS) edits the text
at the cursor, or around the whole text when it is selected, and leaves the cursor where the app
does (between the markers Bold adds); docs/sim-gui.md "Markor's formatting bar".

Pinned: AndroidWorld installs net.gsantner.markor_146.apk; this model follows gsantner/markor
v2.10.9 (versionCode 146).
"""
from __future__ import annotations

import dataclasses
import posixpath

from taskkit.apps.files import STORAGE_ROOT
from taskkit.apps.markor import EXTENSIONS, NOTES_DIR, PACKAGE
from taskkit.sim.devicetime import local_time
from taskkit.sim.gui import appdata, filelist, pictures, widgets
from taskkit.sim.gui.app import AppScreens, Frame, Screen, register
from taskkit.sim.gui.apps.markor_actions import BUTTONS, Button
from taskkit.sim.gui.node import Box, Node, Painted
from taskkit.sim.gui.session import Session
from taskkit.sim.gui.source import Source

SOURCE = Source("gsantner/markor", "v2.10.9", 146)
ID = f"{PACKAGE}:id/"
EDITOR = ".activity.DocumentActivity"
_KNOWN = (".md", ".txt", ".markdown", ".todo.txt", ".csv", ".json")


def modified_line(ui: Session, path: str, is_dir: bool, size: int) -> str:
    """A row's second line: the file's last change in the device's zone, "10/14/23, 15:34"."""
    when = local_time(ui.state, int(appdata.host(ui, path).stat().st_mtime))
    return f"{when.month}/{when.day}/{when.year % 100:02d}, {when.hour:02d}:{when.minute:02d}"


def file_icon(ui: Session, row: Box, path: str, is_dir: bool, selected: bool) -> Node:
    """opoc_filesystem_item.xml's `opoc_filesystem_item__image` (28 dp, at the row's 16 dp side
    padding, centred): GsFileBrowserListAdapter's selectedItemImage, folderImage or fileImage."""
    m = ui.m
    x, middle, half = row[0] + m.dp(16), (row[1] + row[3]) // 2, m.dp(14)
    name = "ic_check_black_24dp" if selected else "ic_folder_white_24dp" if is_dir else "ic_file_white_24dp"
    return Node("android.widget.ImageView", resource_id=f"{ID}opoc_filesystem_item__image",
                bounds=(x, middle - half, x + 2 * half, middle + half), image=pictures.resource(f"markor/{name}"))


IDS = filelist.Ids(f"{ID}ui__filesystem_dialog__list", f"{ID}opoc_filesystem_item__title",
                   f"{ID}opoc_filesystem_item__description", f"{ID}action_delete_selected_items", modified_line,
                   empty="¯\\_(ツ)_/¯", selected="", image=file_icon)  # opoc_filesystem_fragment.xml's empty_hint;
                   # MainActivity clears the title while items are selected


def _delete_message(paths: list[str]) -> str:
    """GsFileBrowserFragment.askForDeletingFilesRecursive: the question, then each file's path."""
    noun = "Document" if len(paths) == 1 else "Documents"  # R.plurals.documents
    return f"Do you really want to delete this {noun}?\n\n" + "".join(f"\n{path}" for path in paths)


def open_file(path: str):
    """The action that opens `path` in the editor with its stored text."""
    def act(ui: Session) -> None:
        ui.push("editor", focus="text", path=path, drafts={"text": appdata.read_text(ui, path)})
    return act


def _save_text(ui: Session, frame: Frame) -> None:
    path = str(frame.args["path"])
    if appdata.read_text(ui, path) != ui.draft(frame, "text") or not appdata.host(ui, path).exists():
        appdata.write_text(ui, path, ui.draft(frame, "text"))


def file_name(name: str, ext: str) -> str:
    """The name a new file gets: `ext` is added unless the name already ends in a known one."""
    name = name.strip()
    return name if name.lower().endswith(_KNOWN) else name + ext.strip()


def _create(frame: Frame):
    def act(ui: Session) -> None:
        name = file_name(ui.draft(frame, "name"), ui.draft(frame, "ext", EXTENSIONS[0]))
        if not name or "/" in name or name.startswith("."):
            return  # the dialog refuses an empty or invalid name
        path = posixpath.join(str(frame.args.get("folder", NOTES_DIR)), name)
        if not appdata.host(ui, path).exists():
            appdata.write_text(ui, path, "")
        ui.finish()
        open_file(path)(ui)
    return act


def _create_folder(frame: Frame):
    """The new-file dialog's "Folder": a folder named as the name field says (no extension)."""
    def act(ui: Session) -> None:
        name = ui.draft(frame, "name").strip()
        if not name or "/" in name or name.startswith("."):
            return
        appdata.make_folder(ui, posixpath.join(str(frame.args.get("folder", NOTES_DIR)), name))
        ui.finish()
    return act


def _open_new(folder: str):
    """The add button: the new-file dialog, its extension field set to ".md"."""
    def act(ui: Session) -> None:
        ui.push("new", focus="name", folder=folder, drafts={"ext": EXTENSIONS[0]})
    return act


# --- screens ----------------------------------------------------------------------------------
def _files(ui: Session, frame: Frame) -> list[Node]:
    folder = str(frame.args.get("folder", NOTES_DIR))
    icon = (0, 0, ui.m.dp(48), 0)
    actions = (widgets.icon_button(ui, icon, "More options", lambda s: s.push("files_menu")),
               widgets.icon_button(ui, icon, "Search", widgets.inert, f"{ID}action_search"),
               widgets.icon_button(ui, icon, "Sort by", widgets.inert, f"{ID}action_sort"),
               widgets.icon_button(ui, icon, "Go to", widgets.inert, f"{ID}action_go_to"))
    nodes, top = widgets.app_bar(ui, "Markor" if folder == NOTES_DIR else posixpath.basename(folder),
                                 up=folder != NOTES_DIR, actions=actions)
    navigation, bottom = widgets.bottom_navigation(ui, _TABS, f"{ID}bottom_navigation_bar", lambda tab: widgets.inert,
                                                   selected="Files")
    nodes.append(filelist.listing(ui, frame, folder, top, IDS, open_file, bottom=bottom))
    fab = widgets.fab(ui, _open_new(folder), f"{ID}fab_add_new_item", "Create a new file or folder")
    x1, y1, x2, y2 = fab.bounds  # above the bottom navigation, as main__activity.xml anchors it
    lift = ui.m.content_bottom - bottom
    return nodes + [dataclasses.replace(fab, bounds=(x1, y1 - lift, x2, y2 - lift)), navigation]


# main__bottom_nav.xml's items (ids, titles, icons); main__activity.xml: labelVisibilityMode "labeled".
_TABS = (widgets.Tab("Files", f"{ID}nav_notebook", "folder"), widgets.Tab("To-Do", f"{ID}nav_todo", "assignment_turned_in"),
         widgets.Tab("QuickNote", f"{ID}nav_quicknote", "flash_on"), widgets.Tab("More", f"{ID}nav_more", "favorite"))


def _new(ui: Session, frame: Frame) -> list[Node]:
    def body(box: tuple[int, int, int, int]) -> list[Node]:
        x1, y1, x2, _ = box
        middle = x2 - ui.m.dp(96)
        return [widgets.edit_text(ui, frame, "name", (x1, y1, middle, y1 + ui.m.dp(56)), "Name", f"{ID}new_file_dialog__name"),
                widgets.edit_text(ui, frame, "ext", (middle + ui.m.dp(8), y1, x2, y1 + ui.m.dp(56)), "Extension",
                                  f"{ID}new_file_dialog__ext")]
    return widgets.dialog(ui, "Create new document", owner=PACKAGE, body=body, body_dp=64, positive=("OK", _create(frame)),
                          neutral=("Folder", _create_folder(frame)))


# --- the selection's actions ------------------------------------------------------------------
def _selection_actions(ui: Session, frame: Frame, paths: list[str]) -> tuple[Node, ...]:
    """The app bar of a selection, right to left as filesystem__menu.xml's always-shown items
    are: the overflow menu, Delete, and for one file Details, Rename and Favourite."""
    folder = str(frame.args["folder"])
    icon = (0, 0, ui.m.dp(48), 0)
    more = widgets.icon_button(ui, icon, "More options", lambda s: s.push("selection_menu", folder=folder, paths=paths))
    views = [more, filelist.delete_button(ui, IDS, paths)]
    if len(paths) == 1:
        name = posixpath.basename(paths[0])
        views += [widgets.icon_button(ui, icon, "Details", widgets.inert, f"{ID}action_info_selected_item"),
                  widgets.icon_button(ui, icon, "Rename", lambda s: s.push("rename", focus="name", path=paths[0],
                                                                           drafts={"name": name}),
                                      f"{ID}action_rename_selected_item"),
                  widgets.icon_button(ui, icon, "Favourite", widgets.inert, f"{ID}action_favourite")]
    return tuple(views)


def _selection_menu(ui: Session, frame: Frame) -> list[Node]:
    """The selection's overflow menu as GsFileBrowserFragment.updateMenuItems shows it: Clipboard
    (one text file), Move, Copy, Create shortcut (one), Share (files only)."""
    folder, paths = str(frame.args["folder"]), [str(p) for p in frame.args["paths"]]
    one, files_only = len(paths) == 1, not any(appdata.host(ui, path).is_dir() for path in paths)
    items = [("Clipboard", widgets.inert)] if one and files_only else []
    items += [("Move", lambda s: s.push("move", paths=paths, at=folder)), ("Copy", widgets.inert)]
    items += [("Create shortcut", widgets.inert)] if one else []
    items += [("Share", widgets.inert)] if files_only else []
    return widgets.popup_menu(ui, items)


def _files_menu(ui: Session, frame: Frame) -> list[Node]:
    """The file list's overflow menu: Import from device, Settings (main__menu.xml)."""
    return widgets.popup_menu(ui, [("Import from device", widgets.inert), ("Settings", widgets.inert)])


def _rename(frame: Frame):
    def act(ui: Session) -> None:
        path, name = str(frame.args["path"]), ui.draft(frame, "name").strip()
        target = posixpath.join(posixpath.dirname(path), name)
        if not name or "/" in name or (target != path and appdata.host(ui, target).exists()):
            return  # the dialog refuses an empty name or one already taken
        if target != path:
            appdata.rename(ui, path, target)
        ui.finish()  # the dialog
        ui.finish()  # the selection
    return act


def _rename_dialog(ui: Session, frame: Frame) -> list[Node]:
    def body(box: tuple[int, int, int, int]) -> list[Node]:
        x1, y1, x2, _ = box
        return [widgets.edit_text(ui, frame, "name", (x1, y1, x2, y1 + ui.m.dp(56)), "Enter the name of your folder",
                                  f"{ID}new_name")]
    return widgets.dialog(ui, "Rename", owner=PACKAGE, body=body, body_dp=64, positive=("OK", _rename(frame)))


def _move_dialog(ui: Session, frame: Frame) -> list[Node]:
    """GsFileBrowserDialog picking the folder to move the selection to."""
    m = ui.m
    at, paths = str(frame.args["at"]), [str(p) for p in frame.args["paths"]]
    go = lambda target: lambda s: s.replace("move", paths=paths, at=target)  # noqa: E731
    entries = [("..", posixpath.dirname(at))] if at != STORAGE_ROOT else []
    entries += [(name, posixpath.join(at, name)) for name, is_dir, _ in appdata.listing(ui, at)
                if is_dir and posixpath.join(at, name) not in paths]  # a folder cannot go into itself

    x1, x2 = m.dp(24), m.width - m.dp(24)
    y1 = (m.height - m.dp(480)) // 2
    y2 = y1 + m.dp(480)
    bar = widgets.text(ui, (x1, y1, x2, y1 + m.dp(56)), "Move", f"{ID}ui__filesystem_dialog__title", size_dp=20)
    rows = [widgets.Row(m.dp(64), lambda row, name=name, target=target: widgets.list_item(
                ui, row, name, "", action=go(target), title_rid=f"{ID}opoc_filesystem_item__title",
                leading=file_icon(ui, row, target, True, False)))
            for name, target in entries]
    listed = widgets.scroll_list(ui, frame, "list", (x1, y1 + m.dp(60), x2, y2 - m.dp(64)), rows,
                                 rid=f"{ID}ui__filesystem_dialog__list")
    ok_width, cancel_width, top = m.dp(180), m.dp(96), y2 - m.dp(56)
    buttons = [widgets.button(ui, (x2 - m.dp(8) - ok_width, top, x2 - m.dp(8), top + m.dp(48)), "Select this folder",
                              filelist.move_selection(frame), f"{ID}ui__filesystem_dialog__button_ok"),
               widgets.button(ui, (x2 - m.dp(8) - ok_width - cancel_width, top, x2 - m.dp(8) - ok_width, top + m.dp(48)),
                              "Cancel", Session.finish, f"{ID}ui__filesystem_dialog__button_cancel")]
    return [Node("android.widget.FrameLayout", bounds=(x1, y1, x2, y2), background=(250, 250, 250),
                 children=[bar, listed, *buttons])]


def _editor_menu(ui: Session, frame: Frame) -> list[Node]:
    """document__edit__menu.xml's overflow items DocumentEditAndViewFragment shows for a text file."""
    return widgets.popup_menu(ui, [(label, widgets.inert) for label in (
        "File settings", "Share", "Tools", "Info", "Reload")])


def _format(frame: Frame, button: Button, selected: bool):
    """A formatting button's tap: its edit of the editor's text at the cursor (around the whole
    text when it is selected); the cursor goes where the app puts the selection's end."""
    def act(ui: Session) -> None:
        assert button.edit is not None
        key, text = frame.key("text"), ui.draft(frame, "text")
        cursor = len(text) - min(ui.cursor(key), len(text))
        new, _, end = button.edit((text, 0 if selected else cursor, cursor))
        ui.set_draft(frame, "text", new)
        ui.set_cursor(key, len(new) - end)
    return act


def _actions_bar(ui: Session, frame: Frame) -> Node:
    """document__fragment__edit.xml's text actions bar at the window's bottom: a
    HorizontalScrollView (`textactions_bar_height` 46 dp, 4 dp top padding, lighter_grey) around
    the LinearLayout of the buttons ActionButtonBase.appendActionButtonToBar adds
    (quick_keyboard_button.xml, inflated without a parent: 24 dp icon, 4 + 8 dp side padding,
    8 dp top and bottom: 48 x 40 dp, the action's string as content description)."""
    m = ui.m
    top, bottom, width = m.content_bottom - m.dp(46), m.content_bottom, m.dp(48)
    row = (top + m.dp(4), top + m.dp(44))
    limit = max(0, len(BUTTONS) * width - m.width)
    offset = min(limit, ui.scroll(frame, "actions") or 0)
    selected = ui.store.data.get("selected") == frame.key("text")
    buttons = []
    for i, button in enumerate(BUTTONS):
        laid_out = (i * width - offset, row[0], (i + 1) * width - offset, row[1])
        box = (max(0, laid_out[0]), row[0], min(m.width, laid_out[2]), row[1])
        if box[2] - box[0] < widgets.SLIVER_PX:
            continue
        buttons.append(Node("android.widget.ImageView", content_desc=button.desc, bounds=box, clickable=True,
                            focusable=True, long_clickable=True, icon=button.icon,
                            action=_format(frame, button, selected) if button.edit else widgets.inert,
                            paint=(Painted(box, text=button.label, center=True, size=m.dp(16)),) if button.label else (),
                            laid_out=laid_out if laid_out != box else None))

    def drag(session: Session, dx: int, dy: int) -> None:
        session.set_scroll(frame, "actions", min(limit, max(0, offset - dx)))

    actions = Node("android.widget.LinearLayout", resource_id=f"{ID}document__fragment__edit__text_actions_bar",
                   bounds=(0, row[0], m.width, bottom), children=buttons)
    return Node("android.widget.HorizontalScrollView", resource_id=f"{ID}document__fragment__edit__text_actions_bar__scrolling_parent",
                bounds=(0, top, m.width, bottom), scrollable=limit > 0, focusable=True, background=_BAR_COLOUR,
                children=[actions], swipe=drag)


_BAR_COLOUR = (0xE0, 0xE0, 0xE0)  # res/values/colors.xml textActionBarColor = lighter_grey


def _editor(ui: Session, frame: Frame) -> list[Node]:
    m = ui.m
    path = str(frame.args["path"])
    icon = (0, 0, m.dp(48), 0)
    overflow = (0, 0, m.dp(36), 0)  # AppCompat's abc_action_button_min_width_overflow_material
    actions = (widgets.icon_button(ui, overflow, "More options", lambda s: s.push("editor_menu")),
               widgets.icon_button(ui, icon, "Search", widgets.inert, f"{ID}action_search"),
               widgets.icon_button(ui, icon, "Save", lambda s: _save_text(s, frame), f"{ID}action_save"),
               widgets.icon_button(ui, icon, "View mode", widgets.inert, f"{ID}action_preview"),
               widgets.icon_button(ui, icon, "Redo", widgets.inert, f"{ID}action_redo"),
               widgets.icon_button(ui, icon, "Undo", widgets.inert, f"{ID}action_undo"))
    # document__activity.xml's title (20sp): Document.getTitle, the name without its extension
    # (GsFileUtils.getFilenameWithoutExtension)
    nodes, top = widgets.app_bar(ui, posixpath.splitext(posixpath.basename(path))[0],
                                 title_rid=f"{ID}note__activity__text_note_title", actions=actions, title_dp=20)
    bar = _actions_bar(ui, frame)  # the editor's scroll view ends above it (layout_marginBottom)
    nodes.append(widgets.edit_text(ui, frame, "text", (m.dp(8), top, m.width - m.dp(8), bar.bounds[1]), "",
                                   f"{ID}document__fragment__edit__highlighting_editor", single_line=False))
    return nodes + [bar]


APP = register(AppScreens(
    PACKAGE,
    {"files": Screen(_files), "selection": Screen(filelist.selection(IDS, open_file, _selection_actions, multiple=True)),
     "new": Screen(_new), "editor": Screen(_editor, EDITOR, on_leave=_save_text),
     "delete": Screen(filelist.confirm_delete(_delete_message, "Confirm Delete", owner=PACKAGE)),
     "selection_menu": Screen(_selection_menu), "files_menu": Screen(_files_menu),
     "editor_menu": Screen(_editor_menu, EDITOR), "rename": Screen(_rename_dialog), "move": Screen(_move_dialog)},
    first="files"))
