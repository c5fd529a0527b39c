"""How near-miss mutations change the rows of a `RowSource`: update, delete, insert, duplicate.

`writer_for(source)` gives a `RowWriter` for an app `Table` (its own SQL) or a `ProviderUri`
(`device.content` update/delete/insert). A provider URI that cannot be written through (a read-only view such as the legacy
`content://contacts/phones`) gets a writer registered for its prefix with
`register_provider_writer`; the contacts one is built in.
"""
from __future__ import annotations

import dataclasses
from typing import Any, Callable, Mapping, Protocol

from taskkit.device.base import Device
from taskkit.apps.table import Table, key_value, where_sql
from taskkit.device.quoting import sql_literal

Row = dict[str, Any]


class RowWriter(Protocol):
    def update(self, device: Device, key: Any, values: Mapping[str, Any]) -> None: ...

    def delete(self, device: Device, key: Any) -> None: ...

    def restore(self, device: Device, row: Row) -> None:
        """Put back a row as it was read (with its key, where the source allows)."""

    def duplicate(self, device: Device, row: Row) -> None:
        """Insert a copy of `row` under a new key."""


def _where_key(column: str, key: Any) -> str:
    return where_sql({column: key_value(key)})


@dataclasses.dataclass(frozen=True)
class TableWriter:
    """Writes an app table's rows by key (the SQL is the table's own)."""

    table: Table

    def update(self, device: Device, key: Any, values: Mapping[str, Any]) -> None:
        self.table.update(device, self.table.key_where(key), values)

    def delete(self, device: Device, key: Any) -> None:
        self.table.delete(device, self.table.key_where(key))

    def restore(self, device: Device, row: Row) -> None:
        self.table.insert(device, [row])

    def duplicate(self, device: Device, row: Row) -> None:
        self.table.insert(device, [{c: v for c, v in row.items() if c != self.table.key}])


@dataclasses.dataclass(frozen=True)
class ContentWriter:
    """Writes through the provider URI itself with the `content` command."""

    uri: str
    key: str = "_id"

    def update(self, device: Device, key: Any, values: Mapping[str, Any]) -> None:
        device.content.update(self.uri, dict(values), where=_where_key(self.key, key))

    def delete(self, device: Device, key: Any) -> None:
        device.content.delete(self.uri, where=_where_key(self.key, key))

    def restore(self, device: Device, row: Row) -> None:
        device.content.insert(self.uri, {c: (key_value(v) if c == self.key else v) for c, v in row.items()})

    def duplicate(self, device: Device, row: Row) -> None:
        device.content.insert(self.uri, {c: v for c, v in row.items() if c != self.key})


@dataclasses.dataclass(frozen=True)
class LegacyPhonesWriter:
    """`content://contacts/phones` is a read-only view: write its data rows and raw contacts."""

    uri: str
    key: str = "_id"

    def update(self, device: Device, key: Any, values: Mapping[str, Any]) -> None:
        from taskkit.apps import contacts

        where = _where_key("_id", key)
        for column, value in values.items():
            if column == "number":
                device.content.update(contacts.DATA_URI, {"data1": value}, where=where)
            elif column in ("display_name", "name"):
                rows = device.content.query(contacts.DATA_URI, projection=["raw_contact_id"], where=where)
                raw = key_value(rows[0]["raw_contact_id"]) if rows else None
                device.content.update(
                    contacts.DATA_URI, {"data1": value},
                    where=f"raw_contact_id = {sql_literal(raw)} AND mimetype = {sql_literal(contacts.NAME_MIMETYPE)}",
                )
            else:
                raise ValueError(f"{self.uri}: cannot change column {column!r} of the legacy phones view")

    def delete(self, device: Device, key: Any) -> None:
        from taskkit.apps import contacts

        device.content.delete(contacts.DATA_URI, where=_where_key("_id", key))

    def restore(self, device: Device, row: Row) -> None:
        self.duplicate(device, row)  # the view's keys are data ids: a new contact gets a new one

    def duplicate(self, device: Device, row: Row) -> None:
        from taskkit.apps import contacts

        contacts.add_contact(device, str(row.get("display_name") or row.get("name") or ""), str(row.get("number") or ""))


_PROVIDER_WRITERS: list[tuple[str, Callable[[str, str], RowWriter]]] = [
    ("content://contacts/phones", LegacyPhonesWriter),
]


def register_provider_writer(prefix: str, factory: Callable[[str, str], RowWriter]) -> None:
    """Use `factory(uri, key)` to write the rows of provider URIs starting with `prefix`."""
    _PROVIDER_WRITERS.insert(0, (prefix, factory))


def writer_for(source: Any) -> RowWriter:
    """The writer for an app `Table` or a `ProviderUri` (anything with a uri and a key)."""
    if isinstance(source, Table):
        return TableWriter(source)
    if hasattr(source, "uri"):
        key = getattr(source, "key", "_id")
        for prefix, factory in _PROVIDER_WRITERS:
            if source.uri.startswith(prefix):
                return factory(source.uri, key)
        return ContentWriter(source.uri, key)
    raise TypeError(f"no row writer for {type(source).__name__}: register one for its kind of source")
