"""SPA-Bench's single-app ladders (arXiv:2410.15164, Appendix B.2), built on the apps taskkit models.

A ladder is three tasks on one app, L1 ⊂ L2 ⊂ L3: each level asks for everything the one below
asks for plus more steps and a new entity, with golden steps under 5, under 10 and under 15 (the
GUI reference's count), a step budget of twice the golden steps, and SPA's key components — the
text the final screen shows (matched, as SPA does, on the episode's screens from the last back). The ladders are data (`ladders.py`); their behaviour per app is a
kind (`kind.py`'s base; `people.py`, `notes.py`, `clock.py`, `media.py`, `system.py`); `tasks.py`
builds the task classes from both; docs/families.md lists them.

Chinese variants run under the zh-CN locale (set for the episode and put back after it) with
entities drawn from Faker's zh_CN provider through the task's seed, and are typed through
ADBKeyboard (taskkit.actions): `input text` types printable ASCII only.
"""
