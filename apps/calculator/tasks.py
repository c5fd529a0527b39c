"""B-MoCA's Calculator tasks (its Appendix B table: instruction, step limit, detector).

Each is judged by B-MoCA's own detector, a UI element of the Calculator's screen: the formula
field `com.google.android.calculator:id/formula` holds exactly the formula ("input '3×5'"), or
the result line (`result_preview` while typing, `result_final` after `=`) starts with the
value's first digits ("compute the harmonic mean of 4 and 5": "4.44"); "open Calculator" looks
for an enabled `clr`. The step limit is the table's (complexity = limit / 10). Where the
instruction has a value it is drawn from the instance's seed; the fixed ones keep the table's
wording. The table prints the cosine detectors' text as "c60" and "c180"; the formula field
shows "cos(60)" once the parenthesis is closed, which is what these tasks look for.

`optimal_steps` is the GUI reference's count of actions on the shortest draw: B-MoCA publishes
step limits, not golden steps.
"""
from __future__ import annotations

from typing import Any, Sequence

from taskkit import metadata
from taskkit.apps import calculator
from taskkit.apps.calculator import formula as calc
from taskkit.env import TaskEnv
from taskkit.gui_reference import Step, open_app, tap
from taskkit.rng import TaskRng
from taskkit.task import TaskEval
from taskkit.validators import Validator, ui_element_matches

ID = f"{calculator.PACKAGE}:id/"


class _CalculatorTask(TaskEval, register=False):
    """A B-MoCA calculator task: the keys of `formula()` typed on a fresh Calculator, judged by
    its detector."""

    abstract = True
    app_names = ("calculator",)
    step_limit = 10
    tags = ("bmoca", "calculator", "category:utility")

    def __init_subclass__(cls, **kwargs: Any) -> None:
        if "step_limit" in cls.__dict__:
            cls.complexity, cls.difficulty = metadata.from_step_limit(cls.step_limit)
        super().__init_subclass__(**kwargs)

    def formula(self) -> str:
        """The formula the task asks for, as the formula field shows it."""
        raise NotImplementedError

    def keys(self) -> list[str]:
        return calc.keys_for(self.formula())

    def initialize_state(self, env: TaskEnv) -> None:
        super().initialize_state(env)
        calculator.reset(env.device)

    def validator(self) -> Validator:
        return ui_element_matches({"resource_id": ID + "formula"}, text=self.formula())

    def solve(self, env: TaskEnv) -> None:
        calculator.APP.launch(env.device)
        where = {e.resource_name: e.bbox.center for e in env.device.ui.screen().elements}
        with env.device.batch():  # the keys stay where they are while the formula grows
            for key in self.keys():
                x, y = where[ID + key]
                env.device.check(f"input tap {x} {y}")

    def gui_reference(self) -> list[Step]:
        return [open_app("calculator")] + [tap(key) for key in self.keys()]


class CalculatorOpen(_CalculatorTask):
    """Open the Calculator: its `clr` key is on the screen, enabled."""
    optimal_steps = 1

    template = "open Calculator"
    step_limit = 4

    def validator(self) -> Validator:
        return ui_element_matches({"resource_id": ID + "clr"}, enabled=True)

    def keys(self) -> list[str]:
        return []


class _Drawn(_CalculatorTask):
    """A formula made from drawn numbers: `pattern` formatted with the params, each param drawn
    from its `draws` values (which also give the schema's bounds)."""

    abstract = True
    pattern = ""
    draws: dict[str, Sequence[int]] = {}

    def __init_subclass__(cls, **kwargs: Any) -> None:
        if "draws" in cls.__dict__:
            cls.schema = {"type": "object", "required": list(cls.draws), "properties": {
                name: {"type": "integer", "minimum": min(values), "maximum": max(values)}
                for name, values in cls.draws.items()}}
        super().__init_subclass__(**kwargs)

    @classmethod
    def generate_random_params(cls, rng: TaskRng) -> dict[str, Any]:
        return {name: rng.choice(values) for name, values in cls.draws.items()}

    def formula(self) -> str:
        return self.pattern.format(**self.params)


_DIGIT, _TWO_DIGITS, _DEGREES = range(1, 10), range(11, 100), (15, 30, 45, 60, 90, 120, 135, 150, 180, 270)


class CalculatorInputNumber(_Drawn):
    optimal_steps = 2
    template = "input {{ n }} in Calculator"
    step_limit = 5
    pattern = "{n}"
    draws = {"n": _DIGIT}


class CalculatorInputFactorial(_Drawn):
    optimal_steps = 3
    template = "input factorial of {{ n }} in Calculator"
    step_limit = 7
    pattern = "{n}!"
    draws = {"n": range(3, 10)}


class CalculatorInputSum(_Drawn):
    optimal_steps = 4
    template = "input '{{ a }}+{{ b }}' in Calculator"
    step_limit = 8
    pattern = "{a}+{b}"
    draws = {"a": _DIGIT, "b": _DIGIT}


class CalculatorInputProduct(_Drawn):
    optimal_steps = 4
    template = "input '{{ a }}×{{ b }}' in Calculator"
    step_limit = 8
    pattern = "{a}×{b}"
    draws = {"a": _DIGIT, "b": _DIGIT}


class CalculatorInputTwoDigitProduct(_Drawn):
    optimal_steps = 6
    template = "input '{{ a }}×{{ b }}' in Calculator"
    step_limit = 10
    pattern = "{a}×{b}"
    draws = {"a": _TWO_DIGITS, "b": _TWO_DIGITS}


class CalculatorInputSquareRoot(_Drawn):
    optimal_steps = 4
    template = "input square root of {{ n }} in Calculator"
    step_limit = 8
    pattern = "√{n}"
    draws = {"n": tuple(n * n for n in range(4, 10))}


class CalculatorInputCosine(_Drawn):
    optimal_steps = 5
    template = "input 'cos({{ degrees }})' in Calculator"
    step_limit = 10
    pattern = "cos({degrees})"
    draws = {"degrees": _DEGREES}


class CalculatorInputPercent(_Drawn):
    optimal_steps = 6
    template = "compute {{ a }}% of {{ b }} ('{{ a }}%{{ b }}') in Calculator"
    step_limit = 9
    pattern = "{a}%{b}"
    draws = {"a": (10, 20, 25, 50, 75), "b": _TWO_DIGITS}


class CalculatorInputNaturalLog(_Drawn):
    optimal_steps = 7
    template = "input 'ln({{ n }})' in Calculator"
    step_limit = 10
    pattern = "ln({n})"
    draws = {"n": range(1000, 10000)}


class CalculatorInputMixedOperations(_Drawn):
    optimal_steps = 6
    template = "input '{{ a }}+{{ b * c }}÷{{ c }}' in Calculator"
    step_limit = 10
    pattern = "{a}+{bc}÷{c}"
    draws = {"a": _DIGIT, "b": range(2, 10), "c": range(2, 10)}

    def formula(self) -> str:
        return self.pattern.format(bc=self.params["b"] * self.params["c"], **self.params)


class CalculatorInputDegreesToRadians(_Drawn):
    optimal_steps = 9
    template = ("input the formula for converting {{ degrees }} degrees to radians ('{{ degrees }}×π÷180') "
                "in Calculator")
    step_limit = 13
    pattern = "{degrees}×π÷180"
    draws = {"degrees": _DEGREES}


class CalculatorInputBinomial(_Drawn):
    optimal_steps = 11
    template = "input '{{ n }}!÷({{ k }}!×{{ n - k }}!)' in Calculator"
    step_limit = 15
    pattern = "{n}!÷({k}!×{m}!)"
    draws = {"n": range(5, 11), "k": range(2, 9)}

    @classmethod
    def generate_random_params(cls, rng: TaskRng) -> dict[str, Any]:
        n = rng.randint(5, 10)
        return {"n": n, "k": rng.randint(2, n - 2)}

    def formula(self) -> str:
        return self.pattern.format(m=self.params["n"] - self.params["k"], **self.params)


class CalculatorInputPrimeSum(_CalculatorTask):
    optimal_steps = 11
    template = "input the formula for computing sum of the first 5 prime numbers in Calculator"
    step_limit = 14

    def formula(self) -> str:
        return "2+3+5+7+11"


class CalculatorInputFibonacciSum(_CalculatorTask):
    """Either start of the sequence counts, as in B-MoCA's detector."""
    optimal_steps = 10

    template = "input the formula for computing sum of the first 5 Fibonacci numbers in Calculator"
    step_limit = 13
    accepted = ("0+1+1+2+3", "1+1+2+3+5")

    def formula(self) -> str:
        return self.accepted[0]

    def validator(self) -> Validator:
        pattern = "|".join(f.replace("+", r"\+") for f in self.accepted)
        return ui_element_matches({"resource_id": ID + "formula", "text": pattern})


class _Mean(_Drawn):
    """A mean computed on the Calculator: the result line starts with its value as the app shows
    it, cut after two decimals (B-MoCA's "starts with '4.44'"). The preview shows it as soon as the
    formula has a value (a last parenthesis left open is closed), so the reference stops there;
    `=` shows the same value as `result_final`."""

    abstract = True
    step_limit = 18

    def value(self) -> float:
        raise NotImplementedError

    def validator(self) -> Validator:
        shown = calc.result_text(self.value())
        if "." in shown:
            shown = shown[:shown.index(".") + 3]
        return ui_element_matches({"resource_id": ID + "result_(preview|final)",
                                   "text": shown.replace(".", r"\.") + ".*"})


class CalculatorHarmonicMean(_Mean):
    optimal_steps = 11
    template = "compute the harmonic mean of {{ a }} and {{ b }} in Calculator"
    pattern = "2÷(1÷{a}+1÷{b}"  # the preview closes the parenthesis
    draws = {"a": range(2, 10), "b": range(2, 10)}

    @classmethod
    def generate_random_params(cls, rng: TaskRng) -> dict[str, Any]:
        a, b = rng.sample(range(2, 10), 2)
        return {"a": a, "b": b}

    def value(self) -> float:
        return 2 / (1 / self.params["a"] + 1 / self.params["b"])


class CalculatorGeometricMean(_Mean):
    optimal_steps = 13
    template = "compute the geometric mean of {{ a }}, {{ b }}, and {{ c }} in Calculator"
    pattern = "({a}×{b}×{c})^(1÷3"
    draws = {"a": range(2, 10), "b": range(2, 10), "c": range(2, 10)}

    @classmethod
    def generate_random_params(cls, rng: TaskRng) -> dict[str, Any]:
        a, b, c = sorted(rng.sample(range(2, 10), 3))
        return {"a": a, "b": b, "c": c}

    def value(self) -> float:
        return (self.params["a"] * self.params["b"] * self.params["c"]) ** (1 / 3)
