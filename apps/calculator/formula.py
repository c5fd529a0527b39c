"""The Calculator's formulas: their tokens as its keys type them, their value, and the result
text the display shows.

A formula is kept as the text the formula field shows ("cos(180)", "6!", "2+24÷3"): each key
appends its label (a function key its name and "("), DEL removes the last token. The value is
computed by a small recursive-descent evaluator of its own (no `eval`) with the precedence of
AOSP ExactCalculator's CalculatorExpr: postfix ! and %, then ^ (right-associative), unary minus,
× ÷ and implicit multiplication ("2π", "50%28"), then + −; parentheses left open at the end are
closed, as the app closes them when it evaluates. Trigonometry follows the DEG/RAD mode.
"""
from __future__ import annotations

import math
import re

from taskkit.errors import TaskkitError

MINUS = "\u2212"  # the − key (op_sub) types U+2212, as the app shows it
FUNCTIONS = ("sin\u207b\u00b9", "cos\u207b\u00b9", "tan\u207b\u00b9", "sin", "cos", "tan", "ln", "log")
BINARY = ("+", MINUS, "\u00d7", "\u00f7", "^")
_TOKEN = re.compile("|".join(re.escape(f + "(") for f in FUNCTIONS) + r"|\d+\.?\d*|\.\d*|[()!%π√e^+×÷−]")

# key resource id (AOSP ExactCalculator's) -> the text it appends to the formula
KEYS: dict[str, str] = {
    **{f"digit_{d}": str(d) for d in range(10)},
    "dec_point": ".", "op_add": "+", "op_sub": MINUS, "op_mul": "\u00d7", "op_div": "\u00f7",
    "op_pct": "%", "op_fact": "!", "op_pow": "^", "op_sqrt": "\u221a", "const_pi": "\u03c0", "const_e": "e",
    "lparen": "(", "rparen": ")", "fun_sin": "sin(", "fun_cos": "cos(", "fun_tan": "tan(", "fun_ln": "ln(",
    "fun_log": "log(", "fun_arcsin": "sin\u207b\u00b9(", "fun_arccos": "cos\u207b\u00b9(",
    "fun_arctan": "tan\u207b\u00b9(",
}
_BY_TEXT = {text: key for key, text in KEYS.items()}


class FormulaError(TaskkitError, ValueError):
    """The formula has no value; the message is what the app shows ("Bad expression")."""


def tokens(formula: str) -> list[str]:
    """The formula's tokens (a number is one token, a function with its "(" is one)."""
    found, at = [], 0
    while at < len(formula):
        match = _TOKEN.match(formula, at)
        if match is None:
            raise FormulaError("Bad expression")
        found.append(match.group())
        at = match.end()
    return found


def keys_for(formula: str) -> list[str]:
    """The key ids that type `formula`, one per character (a function name is one key)."""
    pressed, at = [], 0
    while at < len(formula):
        text = next((t for t in sorted(_BY_TEXT, key=len, reverse=True) if formula.startswith(t, at)), None)
        if text is None:
            raise ValueError(f"no Calculator key types {formula[at:]!r}")
        pressed.append(_BY_TEXT[text])
        at += len(text)
    return pressed


def delete_last(formula: str) -> str:
    """DEL: the formula without its last key's text (a whole function name)."""
    if not formula:
        return ""
    last = next((t for t in sorted(_BY_TEXT, key=len, reverse=True) if formula.endswith(t) and len(t) > 1), None)
    return formula[:-len(last)] if last else formula[:-1]


class _Parser:
    def __init__(self, parts: list[str], degrees: bool):
        self.parts, self.at, self.degrees = parts, 0, degrees

    def peek(self) -> str | None:
        return self.parts[self.at] if self.at < len(self.parts) else None

    def take(self) -> str:
        token = self.parts[self.at]
        self.at += 1
        return token

    def expression(self) -> float:
        value = self.term()
        while self.peek() in ("+", MINUS):
            value = value + self.term() if self.take() == "+" else value - self.term()
        return value

    def term(self) -> float:
        value = self.unary()
        while True:
            token = self.peek()
            if token in ("×", "÷"):
                self.take()
                right = self.unary()
                if token == "÷" and right == 0:
                    raise FormulaError("Can't divide by 0")
                value = value * right if token == "×" else value / right
            elif token is not None and token not in BINARY and token != ")" and token not in "!%":
                value *= self.unary()  # implicit multiplication: 2π, 50%28, 2(3)
            else:
                return value

    def unary(self) -> float:
        if self.peek() == MINUS:
            self.take()
            return -self.unary()
        return self.power()

    def power(self) -> float:
        base = self.postfix()
        if self.peek() == "^":
            self.take()
            exponent = self.unary()
            try:
                return math.pow(base, exponent)
            except (OverflowError, ValueError):
                raise FormulaError("Not a number") from None
        return base

    def postfix(self) -> float:
        value = self.primary()
        while self.peek() in ("!", "%"):
            if self.take() == "%":
                value /= 100
            elif value < 0 or value != int(value) or value > 170:
                raise FormulaError("Not a number")
            else:
                value = float(math.factorial(int(value)))
        return value

    def group(self) -> float:
        value = self.expression()
        if self.peek() == ")":
            self.take()
        elif self.peek() is not None:
            raise FormulaError("Bad expression")
        return value

    def primary(self) -> float:
        token = self.take() if self.peek() is not None else None
        if token is None:
            raise FormulaError("Bad expression")
        if token[0].isdigit() or token[0] == ".":
            return float(token) if token != "." else 0.0
        if token == "π":
            return math.pi
        if token == "e":
            return math.e
        if token == "√":
            value = self.unary()
            if value < 0:
                raise FormulaError("Not a number")
            return math.sqrt(value)
        if token == "(":
            return self.group()
        if token.endswith("("):
            return self.function(token[:-1], self.group())
        raise FormulaError("Bad expression")

    def function(self, name: str, x: float) -> float:
        angle = math.radians if self.degrees else (lambda v: v)
        inverse = math.degrees if self.degrees else (lambda v: v)
        try:
            if name in ("sin", "cos", "tan"):
                if name == "tan" and abs(math.cos(angle(x))) < 1e-15:
                    raise FormulaError("Not a number")
                return _clean(getattr(math, name)(angle(x)))
            if name.endswith("\u207b\u00b9"):
                return inverse(getattr(math, "a" + name[:3])(x))
            if x <= 0:
                raise FormulaError("Not a number")
            return math.log(x) if name == "ln" else math.log10(x)
        except ValueError:
            raise FormulaError("Not a number") from None


def _clean(value: float) -> float:
    """sin(180°) is 0, not 1.2e-16 (the app computes exactly)."""
    return 0.0 if abs(value) < 1e-12 else value


def evaluate(formula: str, degrees: bool = False) -> float:
    """The formula's value; FormulaError (with the app's message) when it has none."""
    parts = tokens(formula)
    if not parts:
        raise FormulaError("Bad expression")
    parser = _Parser(parts, degrees)
    value = parser.expression()
    if parser.peek() is not None:  # a stray ")"
        raise FormulaError("Bad expression")
    if math.isinf(value) or math.isnan(value):
        raise FormulaError("Infinite?")
    return value


def result_text(value: float) -> str:
    """The value as the result line shows it: up to 12 significant digits, no trailing zeros,
    "−" for a negative number."""
    if value == int(value) and abs(value) < 1e15:
        text = str(int(value))
    else:
        text = f"{value:.12g}"
        if "e" in text:
            mantissa, exponent = text.split("e")
            text = f"{mantissa}E{int(exponent)}"
    return text.replace("-", MINUS)


def preview(formula: str, degrees: bool = False) -> str:
    """The result preview under the formula: the value once the formula has an operation and
    ends where a value can be read (else empty), as the app previews while typing."""
    if not formula or not any(ch not in "0123456789." for ch in formula) or formula[-1] in BINARY:
        return ""
    try:
        return result_text(evaluate(formula, degrees))
    except FormulaError:
        return ""
