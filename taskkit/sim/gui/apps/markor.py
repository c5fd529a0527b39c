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
from taskkit.sim.gui.node import Action, Box, Node, Painted
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
                   empty="¯\\_(ツ)_/¯", selected="", image=file_icon,  # opoc_filesystem_fragment.xml's empty_hint;
                   row=f"{ID}opoc_filesystem_item__root")
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
def _browser(ui: Session, frame: Frame, folder: str, title: str, actions: tuple[Node, ...],
             selection: list[str] | None = None) -> list[Node]:
    """main__activity.xml around the notebook's GsFileBrowserFragment: the AppBarLayout `appbar`
    holding the Toolbar `toolbar` (the title, `actions` right to left), the ViewPager2
    `main__view_pager_container` holding the fragment (its SwipeRefreshLayout `pull_to_refresh`
    around the list `ui__filesystem_dialog__list`, or the empty hint), the add button 72 dp above
    the bottom and the bottom navigation `bottom_navigation_bar`; `selection`: the selected paths
    (a tap on a row adds or drops one)."""
    bar, top = widgets.app_bar(ui, title, up=folder != NOTES_DIR or selection is not None, rid=f"{ID}toolbar",
                               actions=actions)
    navigation, bottom = widgets.bottom_navigation(ui, _TABS, f"{ID}bottom_navigation_bar", lambda tab: widgets.inert,
                                                   selected="Files")
    listed = filelist.listing(ui, frame, folder, top, IDS, open_file, selection or (),
                              filelist.toggler(frame) if selection else None, bottom=bottom)
    if listed.resource_id == IDS.list:
        listed = widgets.wrapper(f"{ID}pull_to_refresh", listed)
    pager = Node("android.view.ViewGroup", resource_id=f"{ID}main__view_pager_container",
                 bounds=(0, top, ui.m.width, bottom), children=[listed])
    fab = widgets.fab(ui, _open_new(folder), f"{ID}fab_add_new_item", "Create a new file or folder")
    x1, y1, x2, y2 = fab.bounds  # above the bottom navigation, as main__activity.xml anchors it
    lift = ui.m.content_bottom - bottom
    return [Node("android.widget.LinearLayout", resource_id=f"{ID}appbar", bounds=bar[0].bounds, children=bar), pager,
            dataclasses.replace(fab, bounds=(x1, y1 - lift, x2, y2 - lift)), navigation]


def _files(ui: Session, frame: Frame) -> list[Node]:
    folder = str(frame.args.get("folder", NOTES_DIR))
    icon = (0, 0, ui.m.dp(48), 0)
    actions = (widgets.icon_button(ui, icon, "More options", lambda s: s.push("files_menu")),
               widgets.icon_button(ui, icon, "Search", widgets.inert, f"{ID}action_search"),
               widgets.icon_button(ui, icon, "Sort by", widgets.inert, f"{ID}action_sort"),
               widgets.icon_button(ui, icon, "Go to", widgets.inert, f"{ID}action_go_to"))
    return _browser(ui, frame, folder, "Markor" if folder == NOTES_DIR else posixpath.basename(folder), actions)


def _selection(ui: Session, frame: Frame) -> list[Node]:
    """A selection in the same window (MainActivity clears the title; the bar offers the
    selection's actions): a tap on a row adds it or drops it."""
    paths = filelist.selected(ui, frame)
    return _browser(ui, frame, str(frame.args["folder"]), "", _selection_actions(ui, frame, paths), paths)


# main__bottom_nav.xml's items (ids, titles, icons); main__activity.xml: labelVisibilityMode "labeled".
_TABS = (widgets.Tab("Files", f"{ID}nav_notebook", "folder"), widgets.Tab("To-Do", f"{ID}nav_todo", "assignment_turned_in"),
         widgets.Tab("QuickNote", f"{ID}nav_quicknote", "flash_on"), widgets.Tab("More", f"{ID}nav_more", "favorite"))


# new_file_dialog.xml's spinners: arrays.xml new_file_types (with new_file_types__file_extension)
# and arr_file_templates (strings.xml; the snippets loadTemplatesIntoSpinner adds are none by default)
_TYPES = (("Markdown", ".md"), ("Plain Text", ".txt"), ("todo.txt", ".todo.txt"), ("Wikitext", ".txt"),
          ("AsciiDoc", ".adoc"), ("CSV", ".csv"), ("None", ""))
_TEMPLATES = ("Empty file", "markor-markdown-reference.md", "todo.example.txt", "2029-01-01-jekyll-post.md",
              "cooking-recipe.md", "presentation-beamer.md", "zim-wiki-reference.txt", "zim-wiki-empty.txt",
              "hugo-post-front-matter.md", "202901012359-zettelkasten.md", "2029-01-01-jekyll-post.adoc", "sample.csv")


def _new(ui: Session, frame: Frame) -> list[Node]:
    """NewFileDialog (new_file_dialog.xml in an AlertDialog without a title): the ScrollView
    `new_file_dialog__root` with "Name" over the name and extension fields, "Type" over the
    `new_file_dialog__type` spinner (Markdown: AppSettings' last used type, 0 by default),
    "Template" over `new_file_dialog__template` (Empty file), the two notes; OK, Cancel and
    Folder. The encryption box shows only with a default password set and the UTF-8 BOM box only
    with experimental features on: neither is by default (NewFileDialog.java:106-112)."""
    m = ui.m

    def spinner(box: Box, which: str, value: str) -> Node:
        return Node("android.widget.Spinner", resource_id=f"{ID}new_file_dialog__{which}", bounds=box, clickable=True,
                    focusable=True, action=lambda s: s.push("new_choice", dialog=frame.id, which=which),
                    children=[Node(widgets.TEXT_VIEW, text=value, resource_id="android:id/text1", text_size=m.dp(16),
                                   bounds=(box[0] + m.dp(8), box[1], box[2] - m.dp(24), box[3]))])

    def body(box: Box) -> list[Node]:
        x1, y1, x2, _ = box
        middle = x2 - m.dp(96)
        label = lambda y, value: widgets.text(ui, (x1, y, x2, y + m.dp(24)), value, size_dp=14)  # noqa: E731
        y = y1 + m.dp(24)
        found = [label(y1, "Name"),
                 widgets.edit_text(ui, frame, "name", (x1, y, middle, y + m.dp(56)), "my_note", f"{ID}new_file_dialog__name"),
                 widgets.edit_text(ui, frame, "ext", (middle + m.dp(8), y, x2, y + m.dp(56)), ".md",
                                   f"{ID}new_file_dialog__ext")]
        y += m.dp(56 + 16)
        found += [label(y, "Type"), spinner((x1, y + m.dp(24), x2, y + m.dp(72)), "type",
                                            _TYPES[int(ui.draft(frame, "type") or 0)][0])]
        y += m.dp(72 + 16)
        found += [label(y, "Template"), spinner((x1, y + m.dp(24), x2, y + m.dp(72)), "template",
                                                _TEMPLATES[int(ui.draft(frame, "template") or 0)])]
        y += m.dp(72 + 32)
        found += [widgets.text(ui, (x1, y, x2, y + m.dp(20)), "- Folder is created without file extension", size_dp=12),
                  widgets.text(ui, (x1, y + m.dp(20), x2, y + m.dp(40)), "- Files and folders are not overwritten",
                               size_dp=12)]
        return [Node("android.widget.ScrollView", resource_id=f"{ID}new_file_dialog__root", bounds=box, children=found)]
    return widgets.dialog(ui, "", owner=PACKAGE, body=body, body_dp=24 + 56 + 16 + 72 + 16 + 72 + 32 + 40,
                          positive=("OK", _create(frame)), neutral=("Folder", _create_folder(frame)))


def _new_choice(ui: Session, frame: Frame) -> list[Node]:
    """A new-file spinner's drop-down (simple_spinner_dropdown_item rows, `android:id/text1`): a
    type sets the extension field to its extension (Wikitext also picks the empty Zim
    template); Jekyll and Zettelkasten templates put their date prefix before the name
    (NewFileDialog's listeners). A template's content is not written: the file starts empty."""
    m = ui.m
    dialog, which = Frame(int(frame.args["dialog"]), "new", {}, ""), str(frame.args["which"])
    labels = [label for label, _ in _TYPES] if which == "type" else list(_TEMPLATES)
    chosen = int(ui.draft(dialog, which) or 0)

    def pick(index: int):
        def act(s: Session) -> None:
            s.finish()
            s.set_draft(dialog, which, str(index))
            if which == "type":
                s.set_draft(dialog, "ext", _TYPES[index][1])
                if index == 3:
                    s.set_draft(dialog, "template", "7")
            elif index in (3, 9):
                when = local_time(s.state)
                prefix = when.strftime("%Y-%m-%d-" if index == 3 else "%Y%m%d%H%M-")
                name = s.draft(dialog, "name")
                if not name.startswith(prefix):
                    s.set_draft(dialog, "name", prefix + name)
        return act
    top = max(m.status_bar + m.dp(8), (m.height - m.dp(48) * len(labels)) // 2)
    x1, x2 = m.dp(40), m.width - m.dp(40)
    rows = [Node("android.widget.CheckedTextView", text=label, resource_id="android:id/text1", checkable=True,
                 checked=i == chosen, clickable=True, focusable=True, text_size=m.dp(16), action=pick(i),
                 bounds=(x1, top + m.dp(48) * i, x2, top + m.dp(48) * (i + 1)))
            for i, label in enumerate(labels)]
    return [Node("android.widget.ListView", bounds=(x1, top, x2, top + m.dp(48) * len(rows)), background=(250, 250, 250),
                 children=rows)]


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
        if target != path and appdata.host(ui, target).exists():
            ui.set_draft(frame, "clash", ui.draft(frame, "name"))  # WrRenameDialog.filenameClash
            return
        if not name or "/" in name:
            return  # the dialog refuses an empty name
        if target != path:
            appdata.rename(ui, path, target)
        ui.finish()  # the dialog
        ui.finish()  # the selection
    return act


def _rename_dialog(ui: Session, frame: Frame) -> list[Node]:
    """WrRenameDialog (rename__dialog.xml): `dialog_message`, empty until OK finds the name taken
    ("File/folder already exists! …", OK disabled until the name changes), over `new_name`."""
    m = ui.m
    clash = bool(ui.draft(frame, "clash")) and ui.draft(frame, "clash") == ui.draft(frame, "name")

    def body(box: tuple[int, int, int, int]) -> list[Node]:
        x1, y1, x2, _ = box
        message = widgets.text(ui, (x1, y1, x2, y1 + m.dp(40)),
                               "File/folder already exists! Please use a different name" if clash else "",
                               f"{ID}dialog_message", size_dp=14)
        return [message, widgets.edit_text(ui, frame, "name", (x1, y1 + m.dp(40), x2, y1 + m.dp(96)),
                                           "Enter the name of your folder", f"{ID}new_name")]
    return widgets.dialog(ui, "Rename", owner=PACKAGE, body=body, body_dp=104,
                          positive=("OK", None if clash else _rename(frame)))


def _move_dialog(ui: Session, frame: Frame) -> list[Node]:
    """GsFileBrowserDialog (opoc_filesystem_dialog.xml) picking the folder to move the selection
    to: the title, the utility bar (`ui__filesystem_dialog__home`, which goes to the options'
    root folder, external storage; `ui__filesystem_dialog__search_button`, which gives way to
    the search field filtering the folders by name), the rows (opoc_filesystem_item.xml: the
    folder icon, the name, and as description the folder the row's folder is in, or for ".."
    that folder itself: GsFileBrowserListAdapter.onBindViewHolder without descModtimeInsteadOfParent),
    then Cancel and "Select this folder"."""
    m = ui.m
    at, paths = str(frame.args["at"]), [str(p) for p in frame.args["paths"]]
    go = lambda target: lambda s: s.replace("move", paths=paths, at=target)  # noqa: E731
    searching = ui.draft(frame, "searching") == "1"
    query = ui.draft(frame, "search").strip().casefold() if searching else ""
    entries = [("..", posixpath.dirname(at), posixpath.dirname(at))] if at != STORAGE_ROOT else []
    entries += [(name, posixpath.join(at, name), at) for name, is_dir, _ in appdata.listing(ui, at)
                if is_dir and posixpath.join(at, name) not in paths  # a folder cannot go into itself
                and query in name.casefold()]

    x1, x2 = m.dp(24), m.width - m.dp(24)
    y1 = (m.height - m.dp(480)) // 2
    y2 = y1 + m.dp(480)
    bar = widgets.text(ui, (x1, y1, x2, y1 + m.dp(56)), "Move", f"{ID}ui__filesystem_dialog__title", size_dp=20)
    util = (y1 + m.dp(56), y1 + m.dp(96))
    home = Node("android.widget.ImageView", resource_id=f"{ID}ui__filesystem_dialog__home", clickable=True, focusable=True,
                icon="home", action=go(STORAGE_ROOT), bounds=(x1 + m.dp(8), util[0], x1 + m.dp(40), util[1]))
    search = (widgets.edit_text(ui, frame, "search", (x1 + m.dp(48), util[0], x2 - m.dp(8), util[1]), "Search documents",
                                f"{ID}ui__filesystem_dialog__search_edit") if searching else
              Node("android.widget.ImageView", resource_id=f"{ID}ui__filesystem_dialog__search_button", clickable=True,
                   focusable=True, icon="search", bounds=(x1 + m.dp(48), util[0] + m.dp(4), x2 - m.dp(8), util[1] - m.dp(4)),
                   action=_open_search(frame)))
    utilbar = Node("android.widget.LinearLayout", resource_id=f"{ID}ui__filesystem_dialog__utilbar",
                   bounds=(x1, util[0], x2, util[1]), children=[home, search])
    rows = [widgets.Row(m.dp(64), lambda row, name=name, target=target, parent=parent: widgets.list_item(
                ui, row, name, parent, action=go(target), rid=f"{ID}opoc_filesystem_item__root",
                title_rid=f"{ID}opoc_filesystem_item__title", subtitle_rid=f"{ID}opoc_filesystem_item__description",
                leading=file_icon(ui, row, target, True, False)))
            for name, target, parent in entries]
    listed = widgets.scroll_list(ui, frame, "list", (x1, util[1] + m.dp(4), x2, y2 - m.dp(64)), rows,
                                 rid=f"{ID}ui__filesystem_dialog__list")
    ok_width, cancel_width, top = m.dp(180), m.dp(96), y2 - m.dp(56)
    buttons = [widgets.button(ui, (x2 - m.dp(8) - ok_width, top, x2 - m.dp(8), top + m.dp(48)), "Select this folder",
                              filelist.move_selection(frame), f"{ID}ui__filesystem_dialog__button_ok"),
               widgets.button(ui, (x2 - m.dp(8) - ok_width - cancel_width, top, x2 - m.dp(8) - ok_width, top + m.dp(48)),
                              "Cancel", Session.finish, f"{ID}ui__filesystem_dialog__button_cancel")]
    return [Node("android.widget.FrameLayout", bounds=(x1, y1, x2, y2), background=(250, 250, 250),
                 children=[bar, utilbar, listed, *buttons])]


def _open_search(frame: Frame) -> Action:
    """The move dialog's search button: it goes, the search field shows focused."""
    def act(ui: Session) -> None:
        ui.set_draft(frame, "searching", "1")
        ui.focus(frame, "search")
    return act


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
    nodes, top = widgets.app_bar(ui, posixpath.splitext(posixpath.basename(path))[0], rid=f"{ID}toolbar",
                                 title_rid=f"{ID}note__activity__text_note_title", actions=actions, title_dp=20)
    bar = _actions_bar(ui, frame)  # the editor's scroll view ends above it (layout_marginBottom)
    editor = widgets.edit_text(ui, frame, "text", (m.dp(8), top, m.width - m.dp(8), bar.bounds[1]), "",
                               f"{ID}document__fragment__edit__highlighting_editor", single_line=False)
    # DraggableScrollbarScrollView `document__fragment__edit__content_editor__scrolling_parent` holds the editor
    scroller = Node("android.widget.ScrollView", resource_id=f"{ID}document__fragment__edit__content_editor__scrolling_parent",
                    bounds=(0, top, m.width, bar.bounds[1]), children=[editor])
    return nodes + [scroller, bar]


APP = register(AppScreens(
    PACKAGE,
    {"files": Screen(_files), "selection": Screen(_selection),
     "new": Screen(_new), "new_choice": Screen(_new_choice), "editor": Screen(_editor, EDITOR, on_leave=_save_text),
     "delete": Screen(filelist.confirm_delete(_delete_message, "Confirm Delete", owner=PACKAGE)),
     "selection_menu": Screen(_selection_menu), "files_menu": Screen(_files_menu),
     "editor_menu": Screen(_editor_menu, EDITOR), "rename": Screen(_rename_dialog), "move": Screen(_move_dialog)},
    first="files"))
