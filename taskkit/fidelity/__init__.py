"""How close the simulated screens are to the real apps', measured: `tour` plays every GUI
reference and captures each screen, `contact_sheet` draws them for the docs, `table` counts the
screens' ids and labels found in each app's own sources (docs/fidelity.md)."""
