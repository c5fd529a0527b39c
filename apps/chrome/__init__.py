"""Chrome (`com.android.chrome`): the browser AndroidWorld's Browser tasks open their pages in.

Chrome's own data (tabs, history) is not modelled. What is modelled are taskkit's three game
pages, which the Browser tasks write to Download/task.html and the simulated Chrome renders
natively: each page is a self-contained HTML file whose script draws its puzzle from a seeded
generator, and this module runs the *same* generator, so for a seed Python knows exactly the
maze, the numbers or the colours the page shows.

* maze: a 4 × 4 grid of open cells and walls with a path from the top-left cell (the X) to the
  bottom-right cell (the goal); the Up / Down / Left / Right buttons move the X onto open cells;
  reaching the goal replaces the page by "Success!".
* multiply: a number (1–10) is shown; the button "Next" shows the next one; its fifth press
  hides them and shows a field and Submit; Submit with the product of the five numbers shows
  "Success!".
* draw: three target colours are shown above a 300 × 300 canvas and a palette of named
  colours; dragging on the canvas draws in the chosen colour (black before one is chosen);
  Submit shows "Success!" when each target colour has been drawn with since the canvas was
  last cleared. (AndroidWorld's page looks for the colours among the canvas's pixels; a colour
  drawn over entirely by a later stroke still counts here, so that three straight swipes
  through the canvas's middle, all an element-based swipe action can do, can succeed.)

The pages are taskkit's own (markup, script and generator); only the games' rules follow
AndroidWorld's task_evals/single/browser.py. A page names itself in
`<meta name="taskkit-page" content="KIND">` and `<meta name="taskkit-seed" content="SEED">`.
"""
from __future__ import annotations

import html
import re
from collections import deque
from typing import Iterator

from taskkit.apps.base import App
from taskkit.apps.files import DOWNLOAD_DIR, STORAGE_ROOT
from taskkit.device.base import Device

PACKAGE = "com.android.chrome"
TASK_FILE = f"{DOWNLOAD_DIR}/task.html"
SUCCESS = "Success!"
KINDS = ("maze", "multiply", "draw")
TITLES = {"maze": "Maze", "multiply": "Multiply", "draw": "Colours"}
SEED_MAX = 2**32 - 1

MAZE_SIZE = 4
MOVES = {"Up": (-1, 0), "Down": (1, 0), "Left": (0, -1), "Right": (0, 1)}  # the buttons, in page order
NUMBER_COUNT = 5
CANVAS = 300  # the canvas's own pixels (width = height)
CANVAS_LABEL = "Drawing area"  # the canvas's aria-label
INK = "#000000"  # the colour strokes have before a palette colour is chosen
TARGET_COUNT = 3
PALETTE = (
    ("Red", "#e53935"), ("Orange", "#fb8c00"), ("Yellow", "#fdd835"), ("Lime", "#c0ca33"),
    ("Green", "#43a047"), ("Teal", "#00897b"), ("Cyan", "#00acc1"), ("Blue", "#1e88e5"),
    ("Indigo", "#3949ab"), ("Purple", "#8e24aa"), ("Pink", "#d81b60"), ("Brown", "#6d4c41"),
    ("Grey", "#757575"), ("Olive", "#827717"),
)  # fmt: skip
COLOUR_NAMES = {hex_: name for name, hex_ in PALETTE}


# --- the pages' generator ---------------------------------------------------------------------
class PageRng:
    """The pages' generator (a 32-bit counter hashed by multiply-xorshift rounds), bit for bit
    the `PageRng` of the pages' script."""

    def __init__(self, seed: int):
        self.state = seed & 0xFFFFFFFF

    def next_u32(self) -> int:
        self.state = (self.state + 0x9E3779B9) & 0xFFFFFFFF
        z = self.state
        z = ((z ^ (z >> 16)) * 0x85EBCA6B) & 0xFFFFFFFF
        z = ((z ^ (z >> 13)) * 0xC2B2AE35) & 0xFFFFFFFF
        return z ^ (z >> 16)

    def below(self, n: int) -> int:
        """A number in [0, n): floor(u32 × n / 2³²), exact in the script's doubles for n < 2²¹."""
        return (self.next_u32() * n) >> 32


_JS_RNG = """
class PageRng {
  constructor(seed) { this.state = seed >>> 0; }
  nextU32() {
    this.state = (this.state + 0x9E3779B9) >>> 0;
    let z = this.state;
    z = Math.imul(z ^ (z >>> 16), 0x85EBCA6B) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xC2B2AE35) >>> 0;
    return (z ^ (z >>> 16)) >>> 0;
  }
  below(n) { return Math.floor(this.nextU32() / 4294967296 * n); }
}
"""


# --- maze -------------------------------------------------------------------------------------
def _neighbours(cell: tuple[int, int]) -> Iterator[tuple[str, tuple[int, int]]]:
    """The cells beside `cell` inside the maze, each with the button that leads there (page order)."""
    for button, (dr, dc) in MOVES.items():
        row, col = cell[0] + dr, cell[1] + dc
        if 0 <= row < MAZE_SIZE and 0 <= col < MAZE_SIZE:
            yield button, (row, col)


def _reaches_goal(grid: list[list[bool]], start: tuple[int, int]) -> bool:
    """Whether the goal is reachable from `start` through cells not yet opened."""
    goal = (MAZE_SIZE - 1, MAZE_SIZE - 1)
    seen, todo = {start}, deque([start])
    while todo:
        cell = todo.popleft()
        if cell == goal:
            return True
        for _, nxt in _neighbours(cell):
            if not grid[nxt[0]][nxt[1]] and nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return False


def maze(seed: int) -> tuple[str, ...]:
    """The maze of page `seed`: rows of "." (open) and "#" (wall).

    A random self-avoiding path is carved from the top-left to the bottom-right cell (each step
    chosen among the unopened neighbours the goal can still be reached from), then, in reading
    order, each wall next to exactly one open cell is opened with chance 1/2 (a dead end: the
    carved path stays the only way).
    """
    rng = PageRng(seed)
    grid = [[False] * MAZE_SIZE for _ in range(MAZE_SIZE)]
    row, col = 0, 0
    grid[0][0] = True
    while (row, col) != (MAZE_SIZE - 1, MAZE_SIZE - 1):
        options = [nxt for _, nxt in _neighbours((row, col))
                   if not grid[nxt[0]][nxt[1]] and _reaches_goal(grid, nxt)]
        row, col = options[rng.below(len(options))]
        grid[row][col] = True
    for r in range(MAZE_SIZE):
        for c in range(MAZE_SIZE):
            beside = sum(grid[nr][nc] for _, (nr, nc) in _neighbours((r, c)))
            if not grid[r][c] and beside == 1 and rng.below(2) == 0:
                grid[r][c] = True
    return tuple("".join("." if cell else "#" for cell in line) for line in grid)


def maze_step(layout: tuple[str, ...], position: tuple[int, int], button: str) -> tuple[int, int]:
    """Where the X is after pressing `button` at `position` (it stays before a wall or the edge)."""
    dr, dc = MOVES[button]
    row, col = position[0] + dr, position[1] + dc
    if 0 <= row < MAZE_SIZE and 0 <= col < MAZE_SIZE and layout[row][col] == ".":
        return row, col
    return position


def maze_solution(seed: int) -> list[str]:
    """The shortest button sequence from the start to the goal (buttons tried in page order)."""
    layout = maze(seed)
    goal = (MAZE_SIZE - 1, MAZE_SIZE - 1)
    came: dict[tuple[int, int], tuple[tuple[int, int], str] | None] = {(0, 0): None}
    todo = deque([(0, 0)])
    while todo:
        cell = todo.popleft()
        for button in MOVES:
            nxt = maze_step(layout, cell, button)
            if nxt not in came:
                came[nxt] = (cell, button)
                todo.append(nxt)
    path: list[str] = []
    cell = goal
    while came[cell] is not None:
        cell, button = came[cell]  # type: ignore[misc]
        path.append(button)
    return path[::-1]


# --- multiply ---------------------------------------------------------------------------------
def numbers(seed: int) -> list[int]:
    """The five numbers page `seed` shows, in order (each 1–10)."""
    rng = PageRng(seed)
    return [rng.below(10) + 1 for _ in range(NUMBER_COUNT)]


def product(seed: int) -> int:
    result = 1
    for value in numbers(seed):
        result *= value
    return result


_ANSWER = re.compile(r"^\s*(\d+)\s*$")


def answer_value(text: str) -> int | None:
    """What the page reads from its field: digits with optional spaces around, else nothing."""
    match = _ANSWER.match(text)
    return int(match.group(1)) if match else None


# --- draw -------------------------------------------------------------------------------------
def target_colours(seed: int) -> list[str]:
    """The three distinct palette colours (hex) page `seed` asks for, in the order shown."""
    rng = PageRng(seed)
    left = [hex_ for _, hex_ in PALETTE]
    return [left.pop(rng.below(len(left))) for _ in range(TARGET_COUNT)]


def drawing_succeeds(seed: int, drawn_with: list[str]) -> bool:
    """What Submit says after strokes in the colours `drawn_with` (since the last Clear)."""
    return set(target_colours(seed)) <= set(drawn_with)


# --- the pages --------------------------------------------------------------------------------
_STYLE = """
body { font-family: sans-serif; margin: 16px; text-align: center; }
button { font-size: 22px; margin: 6px; padding: 10px 18px; }
#maze { display: inline-grid; grid-template-columns: repeat(4, 72px); gap: 2px; }
.cell { width: 72px; height: 72px; font-size: 40px; line-height: 72px; border: 1px solid #333; }
.wall { background: #222; } .goal { background: #4caf50; }
#number { font-size: 56px; margin: 24px; }
#answer { font-size: 22px; width: 10em; }
.swatch { display: inline-block; width: 48px; height: 48px; margin: 4px; border: 1px solid #333; }
#canvas { border: 1px solid #333; width: 300px; height: 300px; touch-action: none; }
#palette button { width: 36px; height: 36px; padding: 0; margin: 3px; border: 1px solid #333; }
"""

_MAZE_BODY = """
<h1>Maze</h1>
<div id="maze"></div>
<div id="controls"><button id="Up">Up</button><button id="Down">Down</button>
<button id="Left">Left</button><button id="Right">Right</button></div>
"""
_MAZE_JS = """
const SIZE = 4, MOVES = {Up: [-1, 0], Down: [1, 0], Left: [0, -1], Right: [0, 1]};
const grid = [];
for (let r = 0; r < SIZE; r++) grid.push(new Array(SIZE).fill(false));
function reachesGoal(start) {
  const seen = new Set([start.join()]), todo = [start];
  while (todo.length) {
    const cell = todo.shift();
    if (cell[0] === SIZE - 1 && cell[1] === SIZE - 1) return true;
    for (const [dr, dc] of Object.values(MOVES)) {
      const next = [cell[0] + dr, cell[1] + dc];
      if (next[0] >= 0 && next[0] < SIZE && next[1] >= 0 && next[1] < SIZE && !grid[next[0]][next[1]]
          && !seen.has(next.join())) { seen.add(next.join()); todo.push(next); }
    }
  }
  return false;
}
let row = 0, col = 0;
grid[0][0] = true;
while (!(row === SIZE - 1 && col === SIZE - 1)) {
  const options = [];
  for (const [dr, dc] of Object.values(MOVES)) {
    const r = row + dr, c = col + dc;
    if (r >= 0 && r < SIZE && c >= 0 && c < SIZE && !grid[r][c] && reachesGoal([r, c])) options.push([r, c]);
  }
  [row, col] = options[rng.below(options.length)];
  grid[row][col] = true;
}
for (let r = 0; r < SIZE; r++)
  for (let c = 0; c < SIZE; c++) {
    let beside = 0;
    for (const [dr, dc] of Object.values(MOVES))
      if (r + dr >= 0 && r + dr < SIZE && c + dc >= 0 && c + dc < SIZE && grid[r + dr][c + dc]) beside += 1;
    if (!grid[r][c] && beside === 1 && rng.below(2) === 0) grid[r][c] = true;
  }
const layout = grid.map(line => line.map(open => open ? '.' : '#').join(''));
let at = [0, 0];
function render() {
  const box = document.getElementById('maze');
  box.textContent = '';
  for (let r = 0; r < SIZE; r++)
    for (let c = 0; c < SIZE; c++) {
      const cell = document.createElement('div');
      const goal = r === SIZE - 1 && c === SIZE - 1;
      cell.className = 'cell ' + (layout[r][c] === '#' ? 'wall' : goal ? 'goal' : 'open');
      cell.setAttribute('aria-label', layout[r][c] === '#' ? 'Wall' : goal ? 'Goal' : 'Open');
      if (r === at[0] && c === at[1]) cell.textContent = 'X';
      box.appendChild(cell);
    }
}
function move(button) {
  const [dr, dc] = MOVES[button], r = at[0] + dr, c = at[1] + dc;
  if (r < 0 || r >= SIZE || c < 0 || c >= SIZE || layout[r][c] !== '.') return;
  at = [r, c];
  if (r === SIZE - 1 && c === SIZE - 1) { document.body.innerHTML = '<h1 id="result">Success!</h1>'; return; }
  render();
}
for (const button of Object.keys(MOVES))
  document.getElementById(button).addEventListener('click', () => move(button));
render();
"""

_MULTIPLY_BODY = """
<h1>Multiply</h1>
<p>Press Next until the numbers run out, then enter their product.</p>
<div id="number"></div>
<button id="next">Next</button>
<div id="form" hidden><input id="answer" type="text" inputmode="numeric" placeholder="Product">
<button id="submit">Submit</button></div>
<h2 id="result"></h2>
"""
_MULTIPLY_JS = """
const COUNT = 5, values = [];
for (let i = 0; i < COUNT; i++) values.push(rng.below(10) + 1);
let presses = 0;
const number = document.getElementById('number');
number.textContent = values[0];
document.getElementById('next').addEventListener('click', () => {
  presses += 1;
  if (presses < COUNT) { number.textContent = values[presses]; return; }
  number.hidden = true;
  document.getElementById('next').hidden = true;
  document.getElementById('form').hidden = false;
});
document.getElementById('submit').addEventListener('click', () => {
  const match = /^\\s*(\\d+)\\s*$/.exec(document.getElementById('answer').value);
  const wanted = values.reduce((a, b) => a * b, 1);
  document.getElementById('result').textContent = match && Number(match[1]) === wanted ? 'Success!' : '';
});
"""

_DRAW_BODY = """
<h1>Colours</h1>
<p>Draw with each of these colours, then press Submit.</p>
<div id="targets"></div>
<canvas id="canvas" width="300" height="300" role="img" aria-label="Drawing area"></canvas>
<div id="palette"></div>
<button id="clear">Clear</button><button id="submit">Submit</button>
<h2 id="result"></h2>
"""
_DRAW_JS = """
const CANVAS = 300;
const left = PALETTE.map(([, hex]) => hex), targets = [];
for (let i = 0; i < 3; i++) targets.push(left.splice(rng.below(left.length), 1)[0]);
const names = Object.fromEntries(PALETTE.map(([name, hex]) => [hex, name]));
for (const hex of targets) {
  const swatch = document.createElement('span');
  swatch.className = 'swatch'; swatch.style.background = hex;
  swatch.setAttribute('role', 'img'); swatch.setAttribute('aria-label', names[hex]);
  document.getElementById('targets').appendChild(swatch);
}
let ink = '#000000', used = new Set(), last = null;
for (const [name, hex] of PALETTE) {
  const button = document.createElement('button');
  button.style.background = hex; button.setAttribute('aria-label', name); button.title = name;
  button.addEventListener('click', () => { ink = hex; });
  document.getElementById('palette').appendChild(button);
}
const canvas = document.getElementById('canvas'), ctx = canvas.getContext('2d');
ctx.lineWidth = 8; ctx.lineCap = 'round';
function paint(x0, y0, x1, y1) {
  used.add(ink);
  ctx.strokeStyle = ink; ctx.beginPath(); ctx.moveTo(x0, y0); ctx.lineTo(x1, y1); ctx.stroke();
}
function point(e) {
  const box = canvas.getBoundingClientRect();
  return [(e.clientX - box.left) * CANVAS / box.width, (e.clientY - box.top) * CANVAS / box.height];
}
canvas.addEventListener('pointerdown', e => { last = point(e); canvas.setPointerCapture(e.pointerId); });
canvas.addEventListener('pointermove', e => {
  if (last === null) return;
  const now = point(e);
  paint(last[0], last[1], now[0], now[1]);
  last = now;
});
for (const type of ['pointerup', 'pointercancel']) canvas.addEventListener(type, () => { last = null; });
document.getElementById('clear').addEventListener('click', () => {
  used = new Set();
  ctx.clearRect(0, 0, CANVAS, CANVAS);
});
document.getElementById('submit').addEventListener('click', () => {
  document.getElementById('result').textContent = targets.every(hex => used.has(hex)) ? 'Success!' : '';
});
"""

_PAGES = {"maze": (_MAZE_BODY, _MAZE_JS), "multiply": (_MULTIPLY_BODY, _MULTIPLY_JS), "draw": (_DRAW_BODY, _DRAW_JS)}
_META = re.compile(r'<meta name="taskkit-(page|seed)" content="([^"]*)">')


def page_html(kind: str, seed: int) -> str:
    """The self-contained page of game `kind` for `seed` (no network, no external files)."""
    if kind not in _PAGES or not 0 <= seed <= SEED_MAX:
        raise ValueError(f"no {kind!r} page for seed {seed!r}")
    body, script = _PAGES[kind]
    palette = "const PALETTE = [" + ", ".join(f"['{name}', '{hex_}']" for name, hex_ in PALETTE) + "];\n"
    return ("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
            f'<meta name="taskkit-page" content="{kind}">\n<meta name="taskkit-seed" content="{seed}">\n'
            f"<title>{html.escape(TITLES[kind])}</title>\n<style>{_STYLE}</style>\n</head>\n<body>{body}"
            f"<script>\n{_JS_RNG}const rng = new PageRng({seed});\n{palette}{script}</script>\n</body>\n</html>\n")


def parse_page(text: str) -> tuple[str, int] | None:
    """(kind, seed) of one of taskkit's pages, or None for any other document."""
    found = dict(_META.findall(text[:2000]))
    kind, seed = found.get("page"), found.get("seed", "")
    if kind in _PAGES and seed.isdigit() and int(seed) <= SEED_MAX:
        return kind, int(seed)
    return None


def reset(device: Device) -> None:
    """No task page left in Download; one tab open."""
    device.files.remove(TASK_FILE)
    device.files.remove(TABS_FILE)


# How many tabs are open: Chrome keeps its tabs across a restart (TabPersistentStore's
# app_tabs/0/tab_state0, a binary file); this one-number file is taskkit's stand-in for it,
# absent while only the first tab is open.
TABS_FILE = f"/data/data/{PACKAGE}/files/taskkit_tab_count"


APP = App(name="chrome", package=PACKAGE, aliases=("google chrome",), data_paths=(TASK_FILE, TABS_FILE),
          reset=reset)
