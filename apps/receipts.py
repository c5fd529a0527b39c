"""Shop receipts: seeded content (shop, date, items, total) kept as JSON in a task's params, and
the photo of one (apps/pictures.py). AndroidWorld's gallery tasks start from a receipt photo in
DCIM.
"""
from __future__ import annotations

from typing import Any

from taskkit.apps import pictures
from taskkit.rng import TaskRng

# (item, lowest and highest price in cents)
_ITEMS = (("USB-C cable", 599, 1999), ("Wireless mouse", 1299, 4999), ("Phone case", 899, 2999),
          ("Screen protector", 499, 1499), ("Power bank", 1999, 5999), ("Earbuds", 2499, 8999),
          ("Laptop stand", 1899, 4999), ("HDMI adapter", 799, 2499), ("Webcam", 2499, 6999),
          ("Memory card 64GB", 999, 2499))
_SHOPS = ("Circuit Corner", "Byte Bazaar", "Volt & Wire", "Pixel Depot", "The Gadget Shelf")
_TAX = 0.08


def _random_date(rng: TaskRng) -> str:
    """An ISO date in 2023 before the device date (October 15)."""
    month = rng.randint(1, 10)
    return f"2023-{month:02d}-{rng.randint(1, 14 if month == 10 else 28):02d}"


def random_receipt(rng: TaskRng, items: int = 3) -> dict[str, Any]:
    """A receipt: shop, ISO date in 2023 up to the device date (Oct 15), and `items` lines."""
    date = _random_date(rng)
    chosen = rng.sample(_ITEMS, k=min(items, len(_ITEMS)))
    lines = [{"item": name, "qty": rng.randint(1, 3), "price": rng.randint(low, high)} for name, low, high in chosen]
    return {"shop": rng.choice(_SHOPS), "date": date, "lines": lines}


def random_transactions(rng: TaskRng, count: int) -> list[dict[str, str]]:
    """`count` purchases as a statement lists them: ISO date (2023, up to Oct 15), item, "$12.34"."""
    found = []
    for _ in range(count):
        date = _random_date(rng)
        name, low, high = rng.choice(_ITEMS)
        found.append({"date": date, "item": name, "amount": _money(rng.randint(low, high))})
    return found


def transactions_text(transactions: list[dict[str, str]]) -> str:
    """The purchases as CSV lines under the header "Date, Item, Amount"."""
    return "\n".join(["Date, Item, Amount", *(f"{t['date']}, {t['item']}, {t['amount']}" for t in transactions)])


def transactions_picture(shop: str, transactions: list[dict[str, str]]) -> bytes:
    """A receipt listing `transactions` under the shop's name, as a PNG."""
    lines = [shop, "", *transactions_text(transactions).split("\n"), "", "Thank you for your purchase!"]
    return pictures.text_picture(lines, "png")


def random_shop(rng: TaskRng) -> str:
    return rng.choice(_SHOPS)


def totals(receipt: dict[str, Any]) -> tuple[int, int, int]:
    """(subtotal, tax, total) in cents."""
    subtotal = sum(line["qty"] * line["price"] for line in receipt["lines"])
    tax = round(subtotal * _TAX)
    return subtotal, tax, subtotal + tax


def _money(cents: int) -> str:
    return f"${cents // 100}.{cents % 100:02d}"


def receipt_text(receipt: dict[str, Any]) -> list[str]:
    """The receipt's printed lines, top to bottom."""
    subtotal, tax, total = totals(receipt)
    lines = [receipt["shop"], f"Date: {receipt['date']}", ""]
    lines += [f"{line['qty']} x {line['item']}  {_money(line['qty'] * line['price'])}" for line in receipt["lines"]]
    return lines + ["", f"Subtotal  {_money(subtotal)}", f"Tax 8%  {_money(tax)}", f"TOTAL  {_money(total)}", "",
                    "Thank you for shopping with us!"]


def receipt_jpeg(receipt: dict[str, Any]) -> bytes:
    """The receipt photographed: its printed lines on paper, one JPEG."""
    return pictures.text_picture(receipt_text(receipt))
